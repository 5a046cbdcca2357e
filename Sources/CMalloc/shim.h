// glibc's allocator tuning (mallopt, M_MMAP_THRESHOLD, M_TRIM_THRESHOLD), which Swift's Glibc
// module leaves out: <malloc.h> is not in its module map.
#include <malloc.h>
