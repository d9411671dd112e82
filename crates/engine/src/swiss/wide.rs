//! A fixed-width unsigned integer (512 bits) for the composite edge weights of the Dutch
//! matching: every pairing criterion gets its own bit field, so weights outgrow `u128` in
//! large brackets. Only what the matching needs: add, subtract, halve, double, compare.

use crate::matching::weighted::MatchWeight;
use std::cmp::Ordering;

/// An unsigned integer of `LIMBS` 64-bit limbs (512 bits by default), least significant limb
/// first. Arithmetic wraps (callers keep every value non-negative and below the top bit, see
/// [`Wide::BITS`]).
#[derive(Clone, Copy, Eq)]
pub struct Wide<const LIMBS: usize = 8>([u64; LIMBS]);

// Written out rather than derived: the derived comparison of the limb array calls `memcmp`,
// which dominated the matching's inner loop.
impl<const LIMBS: usize> PartialEq for Wide<LIMBS> {
    fn eq(&self, o: &Self) -> bool {
        let mut diff = 0;
        for i in 0..LIMBS {
            diff |= self.0[i] ^ o.0[i];
        }
        diff == 0
    }
}

impl<const LIMBS: usize> std::hash::Hash for Wide<LIMBS> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<const LIMBS: usize> Default for Wide<LIMBS> {
    fn default() -> Self {
        Wide([0; LIMBS])
    }
}

impl<const LIMBS: usize> std::fmt::Debug for Wide<LIMBS> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        let mut started = false;
        for l in self.0.iter().rev() {
            if started {
                write!(f, "{l:016x}")?;
            } else if *l != 0 {
                write!(f, "{l:x}")?;
                started = true;
            }
        }
        if !started {
            write!(f, "0")?;
        }
        Ok(())
    }
}

impl<const LIMBS: usize> Wide<LIMBS> {
    /// The same value in another width (the caller knows it fits).
    pub fn resize<const M: usize>(&self) -> Wide<M> {
        let mut out = [0u64; M];
        for (o, l) in out.iter_mut().zip(self.0.iter()) {
            *o = *l;
        }
        Wide(out)
    }

    /// Usable bits (one bit is kept free so that doubling never overflows).
    pub const BITS: u32 = 64 * LIMBS as u32 - 1;
    /// Zero.
    pub const ZERO: Self = Wide([0; LIMBS]);

    /// A small value.
    pub fn from_u64(v: u64) -> Self {
        let mut w = [0; LIMBS];
        w[0] = v;
        Wide(w)
    }

    /// True when zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// `self << n`.
    pub fn shl(&self, n: u32) -> Self {
        let mut out = [0u64; LIMBS];
        let limb = (n / 64) as usize;
        let bit = n % 64;
        for i in (limb..LIMBS).rev() {
            let src = i - limb;
            let mut v = self.0[src] << bit;
            if bit > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bit);
            }
            out[i] = v;
        }
        Wide(out)
    }

    /// `self >> 1`.
    pub fn half(&self) -> Self {
        let mut out = [0u64; LIMBS];
        for (i, o) in out.iter_mut().enumerate() {
            let hi = if i + 1 < LIMBS {
                self.0[i + 1] << 63
            } else {
                0
            };
            *o = (self.0[i] >> 1) | hi;
        }
        Wide(out)
    }

    /// `self * 2`.
    pub fn double(&self) -> Self {
        self.shl(1)
    }

    /// `1 << n`.
    pub fn bit(n: u32) -> Self {
        Self::from_u64(1).shl(n)
    }

    /// Whether the lowest bit is set.
    pub fn is_odd(&self) -> bool {
        self.0[0] & 1 == 1
    }

    /// Number of significant bits.
    pub fn bit_len(&self) -> u32 {
        for i in (0..LIMBS).rev() {
            if self.0[i] != 0 {
                return 64 * i as u32 + 64 - self.0[i].leading_zeros();
            }
        }
        0
    }
}

impl<const LIMBS: usize> std::ops::Add for Wide<LIMBS> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        let mut out = [0u64; LIMBS];
        let mut carry = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *slot = s2;
            carry = c1 || c2;
        }
        Wide(out)
    }
}

impl<const LIMBS: usize> std::ops::AddAssign for Wide<LIMBS> {
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}

impl<const LIMBS: usize> std::ops::Sub for Wide<LIMBS> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        let mut out = [0u64; LIMBS];
        let mut borrow = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *slot = d2;
            borrow = b1 || b2;
        }
        Wide(out)
    }
}

impl<const LIMBS: usize> std::ops::SubAssign for Wide<LIMBS> {
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}

impl<const LIMBS: usize> Ord for Wide<LIMBS> {
    fn cmp(&self, o: &Self) -> Ordering {
        for i in (0..LIMBS).rev() {
            match self.0[i].cmp(&o.0[i]) {
                Ordering::Equal => continue,
                other => return other,
            }
        }
        Ordering::Equal
    }
}

impl<const LIMBS: usize> PartialOrd for Wide<LIMBS> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// The Dutch engine's composite weights in the one weighted matching.
impl<const L: usize> MatchWeight for Wide<L> {
    fn zero() -> Self {
        Wide::ZERO
    }
    fn half(self) -> Self {
        Wide::half(&self)
    }
    fn double(self) -> Self {
        Wide::double(&self)
    }
    fn is_odd(self) -> bool {
        Wide::is_odd(&self)
    }
    fn wrapping_sub(self, o: Self) -> Self {
        self - o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    type W8 = Wide<8>;

    fn from_u128(v: u128) -> Wide {
        let mut w: Wide = Wide::ZERO;
        w.0[0] = v as u64;
        w.0[1] = (v >> 64) as u64;
        w
    }

    #[test]
    fn carries_across_limbs() {
        let a: W8 = W8::from_u64(u64::MAX);
        let b = a + Wide::from_u64(1);
        assert_eq!(b, W8::bit(64));
        assert_eq!(b - Wide::from_u64(1), a);
        assert_eq!(W8::bit(300).half(), W8::bit(299));
        assert_eq!(W8::bit(300).bit_len(), 301);
        assert!(W8::bit(300) > W8::bit(299) + W8::bit(298));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        #[test]
        fn agrees_with_u128(a in 0u128..(1u128 << 126), b in 0u128..(1u128 << 126), s in 0u32..120) {
            let (wa, wb) = (from_u128(a), from_u128(b));
            prop_assert_eq!(wa + wb, from_u128(a + b));
            prop_assert_eq!(wa.cmp(&wb), a.cmp(&b));
            if a >= b { prop_assert_eq!(wa - wb, from_u128(a - b)); }
            prop_assert_eq!(wa.half(), from_u128(a >> 1));
            let small = a >> 124;
            prop_assert_eq!(from_u128(small).shl(s), from_u128(small << s));
        }
    }
}
