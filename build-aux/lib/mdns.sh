# Sourced by build-aux/with-avahi: which network interfaces hold the mDNS
# multicast group. avahi-daemon binds 0.0.0.0:5353 whatever its
# configuration says, so `ss -lunp` cannot tell a loopback-only daemon from
# one on the LAN; the group memberships can: avahi joins 224.0.0.251 (and
# ff02::fb) on exactly the interfaces it serves, and sends only there.

# Prints, one per line, each interface other than `lo` on which 224.0.0.251
# or ff02::fb is joined, in the network namespace of process PID (the
# daemon's: /proc/PID/net is that process's namespace, so this works for a
# daemon in another namespace too). Prints nothing when mDNS stays on lo.
mdns_lan_interfaces() { # PID
  local net=/proc/$1/net
  {
    # /proc/net/igmp: an interface line ("1 lo : 2 V3"), then its groups
    # indented, the address in little-endian hex: 224.0.0.251 is FB0000E0.
    awk '/^[0-9]/ { dev = $2 } /^[ \t]/ && toupper($1) == "FB0000E0" { print dev }' "$net/igmp" 2>/dev/null || true
    # /proc/net/igmp6: "index name group users flags timer", one per line.
    awk 'tolower($3) == "ff0200000000000000000000000000fb" { print $2 }' "$net/igmp6" 2>/dev/null || true
  } | { grep -vx lo || true; } | sort -u
}

# Prints each interface other than `lo` that an avahi-daemon log (its
# stderr, not daemonized) calls relevant for mDNS: "New relevant interface
# eth0.IPv4 for mDNS."
avahi_log_lan_interfaces() { # LOG
  sed -n 's/^New relevant interface \([^ ]*\)\.IPv[46] for mDNS\.$/\1/p' "$1" | { grep -vx lo || true; } | sort -u
}
