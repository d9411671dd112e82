//! The outbound guard ([decision 0223](../../../../../docs/decisions/0223-webhook-outbound-guard.md)):
//! which addresses a delivery may connect to. A receiver must be on the public internet: an
//! address of this host, of the private networks, link-local, unspecified, multicast, reserved
//! or documentation ranges is refused, also when it hides in an IPv6 form (IPv4-mapped,
//! IPv4-compatible, NAT64, 6to4), unless `WEBHOOK_ALLOW_PRIVATE=true`.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Whether a delivery may connect to `ip` (a public unicast address).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => public_v6(v6),
    }
}

/// Why `ip` is refused, or none when it is public.
pub fn refusal(ip: IpAddr) -> Option<String> {
    (!is_public(ip)).then(|| {
        format!(
            "{ip} is not a public address (loopback, private, link-local, unspecified, \
             multicast or reserved); set WEBHOOK_ALLOW_PRIVATE=true to allow it"
        )
    })
}

fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    let refused = a == 0 // "this network", unspecified
        || a == 10 // private
        || a == 127 // loopback
        || (a == 100 && (64..128).contains(&b)) // shared address space (carrier NAT)
        || (a == 169 && b == 254) // link-local
        || (a == 172 && (16..32).contains(&b)) // private
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 192 && b == 0 && c == 2) // documentation
        || (a == 192 && b == 88 && c == 99) // 6to4 relay anycast
        || (a == 192 && b == 168) // private
        || (a == 198 && (18..20).contains(&b)) // benchmarking
        || (a == 198 && b == 51 && c == 100) // documentation
        || (a == 203 && b == 0 && c == 113) // documentation
        || a >= 224; // multicast, reserved, broadcast
    !refused
}

fn public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    if ip.is_unspecified() || ip.is_loopback() {
        return false;
    }
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 address decides
    if s[..5] == [0; 5] && (s[5] == 0xffff || s[5] == 0) {
        return public_v4(Ipv4Addr::new(
            (s[6] >> 8) as u8,
            s[6] as u8,
            (s[7] >> 8) as u8,
            s[7] as u8,
        ));
    }
    // NAT64 (64:ff9b::/96): the IPv4 address it translates to decides
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0; 4] {
        return public_v4(Ipv4Addr::new(
            (s[6] >> 8) as u8,
            s[6] as u8,
            (s[7] >> 8) as u8,
            s[7] as u8,
        ));
    }
    // local-use NAT64 (64:ff9b:1::/48, RFC 8215): translated by a gateway of this network to
    // addresses it chooses, so never a public receiver
    if s[0] == 0x64 && s[1] == 0xff9b && s[2] == 1 {
        return false;
    }
    // 6to4 (2002::/16): the IPv4 address in the next 32 bits decides
    if s[0] == 0x2002 {
        return public_v4(Ipv4Addr::new(
            (s[1] >> 8) as u8,
            s[1] as u8,
            (s[2] >> 8) as u8,
            s[2] as u8,
        ));
    }
    let refused = (s[0] & 0xff00) == 0xff00 // multicast
        || (s[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
        || (s[0] & 0xffc0) == 0xfe80 // link-local fe80::/10
        || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated) fec0::/10
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || (s[0] == 0x2001 && s[1] == 0) // Teredo (tunnels to any IPv4 address)
        || (s[0] == 0x0100 && s[1..4] == [0; 3]) // discard-only
        || s[0] == 0; // the rest of ::/16 (reserved)
    !refused
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(text: &str) -> bool {
        is_public(text.parse().unwrap())
    }

    #[test]
    fn private_and_special_addresses_are_refused() {
        for ip in [
            "127.0.0.1",
            "127.255.0.9",
            "0.0.0.0",
            "10.0.0.1",
            "10.255.255.255",
            "172.16.0.1",
            "172.31.255.254",
            "192.168.1.10",
            "169.254.169.254",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.2.7",
            "::1",
            "::",
            "fc00::1",
            "fd12:3456:789a::1",
            "fe80::1",
            "febf::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::ffff:192.168.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::a00:1",
            "2002:c0a8:0101::1",
            "2001:db8::1",
        ] {
            assert!(!public(ip), "{ip} must be refused");
            let parsed: IpAddr = ip.parse().unwrap();
            assert!(refusal(parsed).unwrap().contains(&parsed.to_string()));
        }
    }

    #[test]
    fn local_use_nat64_is_refused_and_well_known_nat64_follows_its_ipv4() {
        // RFC 8215: 64:ff9b:1::/48 is for local translators, whatever the address in it
        for ip in [
            "64:ff9b:1::808:808",
            "64:ff9b:1::1",
            "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
        ] {
            assert!(!public(ip), "{ip} must be refused");
        }
        // RFC 6052: 64:ff9b::/96 carries an IPv4 address in its last 32 bits
        for (ip, v4_public) in [
            ("64:ff9b::7f00:1", false),    // 127.0.0.1
            ("64:ff9b::a9fe:a9fe", false), // 169.254.169.254
            ("64:ff9b::c0a8:101", false),  // 192.168.1.1
            ("64:ff9b::6440:1", false),    // 100.64.0.1
            ("64:ff9b::101:101", true),    // 1.1.1.1
        ] {
            assert_eq!(public(ip), v4_public, "{ip}");
        }
        // just outside the local-use prefix: 64:ff9b:2::/48 is not NAT64 and is judged as
        // any global address
        assert!(public("64:ff9b:2::808:808"));
    }

    #[test]
    fn public_addresses_pass() {
        for ip in [
            "1.1.1.1",
            "8.8.8.8",
            "172.15.255.255",
            "172.32.0.1",
            "192.169.0.1",
            "100.63.255.255",
            "100.128.0.1",
            "2606:4700:4700::1111",
            "2a00:1450:4001:80b::200e",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:0808:0808::1",
        ] {
            assert!(public(ip), "{ip} must pass");
            assert!(refusal(ip.parse().unwrap()).is_none());
        }
    }
}
