"""Published numbers of the reproduced studies, as reference data beside our results."""
