"""`make bench-scale`: the service at the size of the big correspondence servers, on this
machine (bench/scale/run.py)."""
