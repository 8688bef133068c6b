"""What the tests share and test nothing themselves: system programs, servers, data builders, page helpers, the lanes."""
