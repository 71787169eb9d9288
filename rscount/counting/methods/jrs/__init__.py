"""The jrs mode's own counter, named after the mode (not a method): pairs of a concept map and a
learned inference layer (backend.py; kernels.py)."""
