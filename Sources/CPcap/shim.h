#ifndef FRAMEDUMP_CPCAP_SHIM_H
#define FRAMEDUMP_CPCAP_SHIM_H
#include <pcap/pcap.h>
#endif
