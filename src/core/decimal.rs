//! Decimal text → f64, correctly rounded, without `str::parse`.
//!
//! [`parse_f64`] reads exactly the grammar `str::parse::<f64>` reads and returns the same bits
//! (tests compare the two on hundreds of thousands of generated inputs, halfway cases,
//! subnormals and the overflow edge). Two reasons it exists:
//! - speed: plain decimals of at most 15 digits (nearly every monitoring export) take
//!   Clinger's fast path, one exact division, which the page's size-optimised std leaves out;
//! - size: `str::parse::<f64>` carries a 10.4 KB table of powers of five that does not
//!   compress (10.1 KB gzip of the page). What the fast path declines takes [`exact`]: up to 19
//!   significant digits and a decimal exponent within ±27 (the 16- and 17-digit values
//!   exporters print) are exact in 128-bit integers ([`medium`]); anything longer or larger
//!   takes big-integer long division (microseconds, no table).

/// Powers of ten exact in an f64 (5^22 < 2^53).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `str::parse::<f64>`, bit for bit: `[+-]` then `inf`, `infinity`, `nan` (any case) or
/// `digits[.digits]`, `digits.`, `.digits`, each with an optional `e[+-]digits`.
/// `None` exactly where `str::parse` errs.
pub fn parse_f64(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    simple_decimal(b).or_else(|| exact(b))
}

/// `[+-]digits[.digits]` whose digits, read as an integer m, are at most 2^53 (every 15-digit
/// and most 16-digit decimals): the value is `m / 10^k` with `m` and `10^k` exact in an f64
/// (k ≤ 19 here), and one IEEE division rounds it correctly (Clinger's fast path).
pub(crate) fn simple_decimal(b: &[u8]) -> Option<f64> {
    simple_decimal_inlined(b)
}

/// [`simple_decimal`] inlined where it runs for every cell of a file (see
/// `ingest::number::fast_trim_inlined`).
#[inline(always)]
pub(crate) fn simple_decimal_inlined(b: &[u8]) -> Option<f64> {
    let (negative, digits) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    let mut m: u64 = 0;
    let mut count = 0usize;
    let mut frac: Option<usize> = None;
    for &c in digits {
        match c {
            b'0'..=b'9' => {
                count += 1;
                if count > 19 {
                    return None;
                }
                m = m * 10 + u64::from(c - b'0');
                if let Some(f) = frac.as_mut() {
                    *f += 1;
                }
            }
            b'.' if frac.is_none() => frac = Some(0),
            _ => return None,
        }
    }
    // "", ".", "5.", ".5": only digits on both sides of a point (the other shapes go to
    // `exact`).
    if count == 0 || frac == Some(0) || digits.first() == Some(&b'.') {
        return None;
    }
    if m > 1 << 53 {
        return None;
    }
    let v = m as f64 / POW10[frac.unwrap_or(0)];
    Some(if negative { -v } else { v })
}

/// Significant digits kept. A halfway point between two f64 has at most 767 significant
/// digits, so 800 digits plus "was anything non-zero dropped" round exactly.
const MAX_DIGITS: usize = 800;

/// The full grammar, rounded to nearest, ties to even. Callers that already tried
/// `simple_decimal` call this directly; everyone else calls `parse_f64`.
pub(crate) fn exact(b: &[u8]) -> Option<f64> {
    let (negative, rest) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    let signed = |v: f64| if negative { -v } else { v };
    if rest.eq_ignore_ascii_case(b"inf") || rest.eq_ignore_ascii_case(b"infinity") {
        return Some(signed(f64::INFINITY));
    }
    if rest.eq_ignore_ascii_case(b"nan") {
        return Some(signed(f64::NAN));
    }

    // value = digits × 10^e10 (+ a non-zero tail below the last kept digit when `sticky`).
    let mut digits: Vec<u8> = Vec::new();
    let mut e10: i64 = 0;
    let mut sticky = false;
    let mut seen_digit = false;
    let mut i = 0;
    let mut in_fraction = false;
    while i < rest.len() {
        match rest[i] {
            c @ b'0'..=b'9' => {
                seen_digit = true;
                let d = c - b'0';
                if digits.len() < MAX_DIGITS {
                    if d != 0 || !digits.is_empty() {
                        digits.push(d);
                    }
                    if in_fraction {
                        e10 -= 1;
                    }
                } else {
                    sticky |= d != 0;
                    if !in_fraction {
                        e10 += 1;
                    }
                }
            }
            b'.' if !in_fraction => in_fraction = true,
            _ => break,
        }
        i += 1;
    }
    if !seen_digit {
        return None;
    }
    if i < rest.len() {
        if !matches!(rest[i], b'e' | b'E') {
            return None;
        }
        i += 1;
        let exp_negative = match rest.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        if i >= rest.len() {
            return None;
        }
        let mut exp: i64 = 0;
        for &c in &rest[i..] {
            if !c.is_ascii_digit() {
                return None;
            }
            // Saturate: anything past a million is zero or infinity all the same.
            exp = (exp * 10 + i64::from(c - b'0')).min(1_000_000_000);
        }
        e10 += if exp_negative { -exp } else { exp };
    }
    while digits.last() == Some(&0) {
        digits.pop();
        e10 += 1;
    }
    if digits.is_empty() {
        return Some(signed(0.0));
    }
    // value ∈ [10^(top - 1), 10^top)
    let top = digits.len() as i64 + e10;
    if top > 310 {
        return Some(signed(f64::INFINITY));
    }
    if top < -324 {
        // below 10^-325, under half the smallest subnormal (2.47e-324)
        return Some(signed(0.0));
    }
    if let Some(v) = medium(&digits, e10) {
        return Some(signed(v));
    }
    Some(signed(round_ratio(&digits, e10, sticky)))
}

/// Up to 19 significant digits with a decimal exponent in ±27 (e.g. the 16- and 17-digit
/// values Prometheus and JSON exporters print): exact in 128-bit integers, since
/// w × 10^e = w × 5^e × 2^e and 5^27 < 2^63. Nothing dropped, so no sticky digit.
fn medium(digits: &[u8], e10: i64) -> Option<f64> {
    if digits.len() > 19 || !(-27..=27).contains(&e10) {
        return None;
    }
    let w = digits.iter().fold(0u64, |w, &d| w * 10 + u64::from(d));
    let bits = |x: u128| 128 - x.leading_zeros() as i64;
    let pow5 = 5u128.pow(e10.unsigned_abs() as u32);
    // value = (q + rem/den) × 2^shift
    let (q, rem, shift) = if e10 >= 0 {
        (u128::from(w) * pow5, false, e10)
    } else {
        // w / (5^k · 2^k): scale w up so the quotient has 56 or 57 bits.
        let s = (56 + bits(pow5) - bits(u128::from(w))).max(0);
        let n = u128::from(w) << s;
        (n / pow5, n % pow5 != 0, e10 - s)
    };
    let len = bits(q);
    let (mut m, mut e) = if len <= 53 {
        (q << (53 - len), shift - (53 - len))
    } else {
        let d = len - 53;
        let low = q & ((1 << d) - 1);
        let half = 1u128 << (d - 1);
        let mut m = q >> d;
        if low > half || (low == half && (rem || m & 1 == 1)) {
            m += 1;
        }
        (m, shift + d)
    };
    if m == 1 << 53 {
        m >>= 1;
        e += 1;
    }
    // m ∈ [2^52, 2^53) and |value| between 1e-27 and 1e46: a normal double.
    Some(f64::from_bits(
        (((e + 1075) as u64) << 52) | (m as u64 - (1 << 52)),
    ))
}

/// digits × 10^e10 (|e10| small enough for the checks in `exact`) rounded to an f64.
fn round_ratio(digits: &[u8], e10: i64, sticky: bool) -> f64 {
    let mut num = Big::from_digits(digits);
    let mut den = Big::one();
    if e10 >= 0 {
        num.mul_pow10(e10 as u32);
    } else {
        den.mul_pow10((-e10) as u32);
    }
    // num / den ∈ (2^(k-1), 2^(k+1)); a quotient with 53 significant bits wants a shift s
    // (value = q × 2^-s) of 53 - k, or one less.
    let k = num.bits() as i64 - den.bits() as i64;
    let mut s = (53 - k).min(1074);
    let (mut q, mut half) = divide(&num, &den, s);
    if q >= 1 << 53 {
        s -= 1;
        (q, half) = divide(&num, &den, s);
    }
    let up = match half {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => sticky || q & 1 == 1,
        std::cmp::Ordering::Less => false,
    };
    if up {
        q += 1;
        if q == 1 << 53 {
            q = 1 << 52;
            s -= 1;
        }
    }
    if q < 1 << 52 {
        // Subnormal (s is 1074 here) or zero.
        return f64::from_bits(q);
    }
    let biased = 1075 - s;
    if biased >= 2047 {
        return f64::INFINITY;
    }
    f64::from_bits(((biased as u64) << 52) | (q - (1 << 52)))
}

/// floor(num × 2^s / den) (below 2^55 by the choice of s) and how twice the remainder
/// compares with den (above, at or below one half).
fn divide(num: &Big, den: &Big, s: i64) -> (u64, std::cmp::Ordering) {
    let mut a = num.clone();
    let mut b = den.clone();
    if s >= 0 {
        a.shl(s as u32);
    } else {
        b.shl((-s) as u32);
    }
    let mut q: u64 = 0;
    for i in (0..=55u32).rev() {
        let mut t = b.clone();
        t.shl(i);
        if a.cmp(&t) != std::cmp::Ordering::Less {
            a.sub(&t);
            q |= 1 << i;
        }
    }
    a.shl(1);
    (q, a.cmp(&b))
}

/// An unsigned big integer, base 2^32, least significant limb first, no leading zero limbs.
#[derive(Clone)]
struct Big(Vec<u32>);

impl Big {
    fn one() -> Big {
        Big(vec![1])
    }

    fn from_digits(digits: &[u8]) -> Big {
        let mut n = Big(Vec::new());
        for chunk in digits.chunks(9) {
            let mut v = 0u32;
            for &d in chunk {
                v = v * 10 + u32::from(d);
            }
            n.mul_add(10u32.pow(chunk.len() as u32), v);
        }
        n
    }

    fn mul_add(&mut self, m: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let t = u64::from(*limb) * u64::from(m) + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut e: u32) {
        while e >= 9 {
            self.mul_add(1_000_000_000, 0);
            e -= 9;
        }
        self.mul_add(10u32.pow(e), 0);
    }

    fn bits(&self) -> u32 {
        match self.0.last() {
            Some(top) => (self.0.len() as u32) * 32 - top.leading_zeros(),
            None => 0,
        }
    }

    fn shl(&mut self, n: u32) {
        if self.0.is_empty() {
            return;
        }
        let limbs = (n / 32) as usize;
        let bits = n % 32;
        if bits > 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let next = *limb >> (32 - bits);
                *limb = (*limb << bits) | carry;
                carry = next;
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }

    fn cmp(&self, other: &Big) -> std::cmp::Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// self -= other (other ≤ self).
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let t = i64::from(*limb) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            *limb = t as u32;
            borrow = i64::from(t < 0);
            if i >= other.0.len() && borrow == 0 {
                break;
            }
        }
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(text: &str) {
        let want = text.parse::<f64>().ok().map(f64::to_bits);
        assert_eq!(parse_f64(text).map(f64::to_bits), want, "{text:?}");
        assert_eq!(
            exact(text.as_bytes()).map(f64::to_bits),
            want,
            "exact {text:?}"
        );
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
    }

    #[test]
    fn hand_examples() {
        // Fast path: one division.
        assert_eq!(parse_f64("45.3"), Some(45.3));
        assert_eq!(parse_f64("-0.1"), Some(-0.1));
        assert_eq!(simple_decimal(b"123456789012345"), Some(123456789012345.0));
        assert_eq!(
            simple_decimal(b"0.6666666666666666"),
            Some(0.6666666666666666)
        );
        assert_eq!(simple_decimal(b"9007199254740993"), None); // above 2^53
        assert_eq!(simple_decimal(b"12345678901234567890"), None); // 20 digits
                                                                   // Exact path.
        assert_eq!(parse_f64("1e3"), Some(1000.0));
        assert_eq!(parse_f64("5."), Some(5.0));
        assert_eq!(parse_f64(".5"), Some(0.5));
        assert_eq!(parse_f64("2.5E-3"), Some(0.0025));
        assert_eq!(parse_f64("1e400"), Some(f64::INFINITY));
        assert_eq!(
            parse_f64("-1e-400").map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
        // 2^53 + 1 is halfway between 2^53 and 2^53 + 2: ties to even, down.
        assert_eq!(parse_f64("9007199254740993"), Some(9007199254740992.0));
        // 2^53 + 3 is halfway between 2^53 + 2 and 2^53 + 4: ties to even, up.
        assert_eq!(parse_f64("9007199254740995"), Some(9007199254740996.0));
        // A digit far below the halfway point breaks the tie upwards.
        assert_eq!(
            parse_f64("9007199254740993.00000000000000000000000000001"),
            Some(9007199254740994.0)
        );
        assert_eq!(
            parse_f64("4.9406564584124654e-324"),
            Some(f64::from_bits(1))
        );
        assert_eq!(parse_f64("2.4703282292062327e-324"), Some(0.0)); // just under half
        assert_eq!(
            parse_f64("2.4703282292062328e-324"),
            Some(f64::from_bits(1))
        );
        assert_eq!(parse_f64("1.7976931348623157e308"), Some(f64::MAX));
        assert_eq!(parse_f64("1.7976931348623159e308"), Some(f64::INFINITY));
        assert_eq!(
            parse_f64("2.2250738585072014e-308"),
            Some(f64::MIN_POSITIVE)
        );
        // The 128-bit path takes what exporters print (16-17 digits); the big-integer path
        // takes the rest.
        let digits = |t: &str| t.bytes().map(|c| c - b'0').collect::<Vec<u8>>();
        assert_eq!(
            medium(&digits("6666666666666666"), -16),
            Some(0.6666666666666666)
        );
        assert_eq!(
            medium(&digits("30000000000000004"), -17),
            Some(0.30000000000000004)
        );
        assert_eq!(
            medium(&digits("9007199254740993"), 0),
            Some(9007199254740992.0)
        );
        assert_eq!(medium(&digits("12345678901234567890"), 0), None); // 20 digits
        assert_eq!(medium(&digits("1"), -28), None);
        for bad in [
            "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1,5", "--1", "0x10", " 1", "1 ",
        ] {
            assert_eq!(parse_f64(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn same_bits_as_str_parse_on_odd_shapes() {
        for t in [
            "0", "-0", "+0", "0.0", "-0.0", "00012", "0.000", "1e0", "1E+2", "1e-2", "-.5e1",
            "5.e2", "inf", "-INF", "Infinity", "+infinity", "nan", "NaN", "-nan", "infinit",
            "1e99999999999999999999", "1e-99999999999999999999", "0e99999", "1_000",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791",
        ] {
            same(t);
        }
    }

    #[test]
    fn same_bits_as_str_parse_on_random_text() {
        // Every short string over the grammar's alphabet, sampled: the same accept/reject
        // decision and the same bits.
        let alphabet = b"0123456789.eE+-in";
        let mut rng = Rng(7);
        for _ in 0..300_000 {
            let len = 1 + rng.next() % 9;
            let t: String = (0..len)
                .map(|_| char::from(alphabet[(rng.next() % alphabet.len() as u64) as usize]))
                .collect();
            same(&t);
        }
    }

    #[test]
    fn same_bits_as_str_parse_on_every_magnitude() {
        // Shortest and 17-, 25- and 40-digit renderings of random doubles of every exponent,
        // and their neighbours in the last digit.
        let mut rng = Rng(11);
        for _ in 0..6_000 {
            let bits = (rng.next() << 33) ^ (rng.next() << 10) ^ rng.next();
            let v = f64::from_bits(bits & 0x7fff_ffff_ffff_ffff);
            if !v.is_finite() {
                continue;
            }
            for t in [
                format!("{v:e}"),
                format!("{v:.16e}"),
                format!("{v:.24e}"),
                format!("{v:.39e}"),
            ] {
                same(&t);
                let (mantissa, exp) = t.split_once('e').unwrap_or((&t, "0"));
                let mut m: Vec<u8> = mantissa.bytes().collect();
                if let Some(last) = m.iter_mut().rev().find(|c| c.is_ascii_digit()) {
                    *last = if *last == b'9' { b'8' } else { *last + 1 };
                }
                same(&format!(
                    "{}e{exp}",
                    String::from_utf8(m).unwrap_or_default()
                ));
            }
        }
    }

    #[test]
    fn same_bits_as_str_parse_on_exact_halfway_points() {
        // The midpoint between a double m·2^k and its successor is (2m + 1)·2^(k-1): written
        // out exactly as an integer (k ≥ 1) or as (2m + 1)·5^j / 10^j (k = 1 - j), these are
        // the inputs where ties-to-even decides, plus the same with a far tail digit.
        let mut rng = Rng(5);
        for _ in 0..8_000 {
            let m = (1u128 << 52) | u128::from((rng.next() << 20) ^ rng.next()) & ((1 << 52) - 1);
            let odd = 2 * m + 1;
            let shift = (rng.next() % 70) as u32;
            let up = odd << shift; // (2m+1)·2^shift < 2^124
            same(&up.to_string());
            same(&format!("{up}.000000000000000000000000001"));
            let j = (rng.next() % 31) as u32 + 1;
            let scaled = odd * 5u128.pow(j); // (2m+1)·5^j < 2^54 · 2^72
            let text = scaled.to_string();
            let (int, frac) = if text.len() > j as usize {
                text.split_at(text.len() - j as usize)
            } else {
                ("0", text.as_str())
            };
            let frac = format!("{frac:0>width$}", width = j as usize);
            same(&format!("{int}.{frac}"));
            same(&format!("{int}.{frac}00000000000000000000000000000000001"));
            same(&format!("{int}.{frac}e-300"));
        }
    }

    #[test]
    fn same_bits_as_str_parse_on_16_to_19_digits() {
        // What the 128-bit path serves: random doubles near 1 printed with 16 to 19
        // significant digits, exponents from -27 to 27, and each with its last digit bumped.
        let mut rng = Rng(13);
        for _ in 0..60_000 {
            let bits = (rng.next() << 33) ^ (rng.next() << 10) ^ rng.next();
            let e = (rng.next() % 120) as i64 - 60;
            let v = f64::from_bits(((e + 1023) as u64) << 52 | (bits & ((1 << 52) - 1)));
            let digits = 15 + (rng.next() % 4) as usize;
            let t = format!("{v:.digits$e}");
            same(&t);
            let (mantissa, exp) = t.split_once('e').unwrap_or((&t, "0"));
            let mut m: Vec<u8> = mantissa.bytes().collect();
            if let Some(last) = m.last_mut() {
                *last = if *last == b'9' { b'0' } else { *last + 1 };
            }
            same(&format!(
                "{}e{exp}",
                String::from_utf8(m).unwrap_or_default()
            ));
            let plain = format!(
                "{v:.*}",
                (digits as i64 - 1 - e * 3 / 10).clamp(0, 30) as usize
            );
            same(&plain);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config { failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct("tests/regressions/decimal.txt"))), ..proptest::test_runner::Config::default() })]
        /// Any text at all, and any text shaped like a number: the same answer as
        /// `str::parse`, never a panic.
        #[test]
        fn any_text_reads_like_str_parse(
            t in "\\PC{0,12}|[-+]?[0-9]{0,25}(\\.[0-9]{0,25})?([eE][-+]?[0-9]{1,4})?"
        ) {
            let want = t.parse::<f64>().ok().map(f64::to_bits);
            proptest::prop_assert_eq!(parse_f64(&t).map(f64::to_bits), want, "{:?}", t);
        }
    }

    #[test]
    fn long_inputs_round_on_the_tail() {
        // 900 digits: the part past MAX_DIGITS only breaks ties.
        let mut t = String::from("9007199254740993");
        t.push_str(&"0".repeat(900));
        same(&t);
        t.push('1');
        same(&t);
        let mut f = String::from("0.");
        f.push_str(&"3".repeat(1000));
        same(&f);
    }
}
