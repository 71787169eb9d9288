"""Running counts apart from the algorithms: child processes under time and memory limits, jobs on
local processes or a Dask cluster, and the workers that count permutation classes side by side."""
