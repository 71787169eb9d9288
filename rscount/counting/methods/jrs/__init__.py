"""`--method jrs` (the jrs mode): pairs of a concept map and a learned inference layer (backend.py;
kernels.py)."""
