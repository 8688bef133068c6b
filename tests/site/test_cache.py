"""The build cache (raglab_site/cache.py): where it lives, what a hit marks, what a store prunes."""

import os
import time

from raglab_site import cache


def test_a_hit_marks_the_entry_used_and_a_store_deletes_only_entries_long_unused(tmp_path):
    old, used, fresh = tmp_path / "old.bin", tmp_path / "used.bin", tmp_path / "fresh.bin"
    long_ago = time.time() - (cache.KEEP_DAYS + 1) * 86400
    for path in (old, used):
        path.write_bytes(b"x")
        os.utime(path, (long_ago, long_ago))
    assert cache.load(used) == b"x"
    assert cache.load(tmp_path / "missing.bin") is None
    cache.store(fresh, b"new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.bin", "used.bin"]
    assert fresh.read_bytes() == b"new"


def test_the_cache_is_the_users_unless_raglab_cache_names_one(tmp_path):
    assert cache.default_folder({"RAGLAB_CACHE": str(tmp_path)}) == tmp_path
    assert cache.default_folder({}) == cache.Path.home() / ".cache" / "raglab"
