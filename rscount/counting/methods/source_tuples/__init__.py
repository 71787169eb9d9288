"""`--method source-tuples`: the disentangled count summed over the tuples of sources feeding each
label group (backend.py; tuples.py)."""
