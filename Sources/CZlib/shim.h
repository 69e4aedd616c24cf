#ifndef FRAMEDUMP_CZLIB_SHIM_H
#define FRAMEDUMP_CZLIB_SHIM_H
#include <zlib.h>
#endif
