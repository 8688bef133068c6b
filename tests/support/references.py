"""Brute-force references that more than one test module checks the core against (not a test module)."""


def brute_force_windows(tokens: int, chunk_size: int, overlap: int) -> list[tuple[int, int]]:
    """Slide a window token by token: starts every stride, clipped at the end, none inside the previous."""
    stride = chunk_size - overlap
    windows, start = [], 0
    while start < tokens:
        end = min(start + chunk_size, tokens)
        windows.append((start, end))
        if end == tokens:
            break
        start += stride
    return windows
