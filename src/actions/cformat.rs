//! Emulation of the few C `printf` conversions the peers use for floating-point output:
//! `%W.Pf` (with the `-nan` spelling glibc uses for x86-64 default NaNs), `% W.Pf` (space flag)
//! and `%g`.
//!
//! Rust's float formatting rounds the exact binary value correctly with ties to even, exactly like
//! glibc in the default rounding mode, so only the NaN/infinity spellings, the space flag and the
//! `%g` style selection need emulating here. Every NaN prints as `-nan`: on x86-64 the NaNs the
//! peers can produce (`0.0/0.0`, `sqrt` of a negative, sums involving those) all carry the sign bit.

use std::io::Write;

/// Writes `text` right-aligned in a field of `width` characters (C pads strings and numbers the
/// same way when no `-` flag is given).
fn write_padded(out: &mut Vec<u8>, width: usize, text: &str) {
    for _ in text.len()..width {
        out.push(b' ');
    }
    out.extend_from_slice(text.as_bytes());
}

/// Appends C's `%<width>.<precision>f` of `x`. NaN prints as `-nan` and infinities as `inf` /
/// `-inf`, right-aligned like numbers.
pub fn write_fixed(out: &mut Vec<u8>, x: f64, width: usize, precision: usize) {
    if x.is_nan() {
        write_padded(out, width, "-nan");
    } else if x.is_infinite() {
        write_padded(out, width, if x < 0.0 { "-inf" } else { "inf" });
    } else {
        // Writing into a Vec cannot fail.
        let _ = write!(out, "{:>width$.precision$}", x, width = width, precision = precision);
    }
}

/// Appends C's `% <width>.<precision>f` (space flag: a blank where a minus sign would go).
pub fn write_fixed_space(out: &mut Vec<u8>, x: f64, width: usize, precision: usize) {
    if x.is_nan() {
        // glibc prints the sign of the NaN; the peers' NaNs are negative.
        write_padded(out, width, "-nan");
        return;
    }
    let body = if x.is_infinite() {
        if x < 0.0 {
            "-inf".to_string()
        } else {
            " inf".to_string()
        }
    } else if x.is_sign_negative() {
        format!("{:.*}", precision, x)
    } else {
        format!(" {:.*}", precision, x)
    };
    write_padded(out, width, &body);
}

/// Removes trailing zeros after a decimal point, and the point itself if nothing follows it.
fn strip_fraction_zeros(text: &mut String) {
    if text.contains('.') {
        while text.ends_with('0') {
            text.pop();
        }
        if text.ends_with('.') {
            text.pop();
        }
    }
}

/// C's `%.<precision>g` of `x` (no width), as a string: `precision` significant digits, `%e`
/// style when the decimal exponent is below −4 or at least the precision, trailing zeros removed.
pub fn format_g(x: f64, precision: usize) -> String {
    let precision = precision.max(1);
    if x.is_nan() {
        return "-nan".to_string();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf".to_string() } else { "inf".to_string() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0".to_string() } else { "0".to_string() };
    }
    // The exponent after rounding to `precision` significant digits decides the style.
    let sci = format!("{:.*e}", precision - 1, x);
    let (mantissa, exponent) = match sci.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse::<i32>().unwrap_or(0)),
        None => (sci.clone(), 0),
    };
    if exponent < -4 || exponent >= precision as i32 {
        let mut m = mantissa;
        strip_fraction_zeros(&mut m);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{}{:02}", m, sign, exponent.unsigned_abs())
    } else {
        let decimals = (precision as i32 - 1 - exponent).max(0) as usize;
        let mut fixed = format!("{:.*}", decimals, x);
        strip_fraction_zeros(&mut fixed);
        fixed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(x: f64, w: usize, p: usize) -> String {
        let mut v = Vec::new();
        write_fixed(&mut v, x, w, p);
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn fixed_matches_glibc() {
        assert_eq!(fixed(4.3759, 10, 4), "    4.3759");
        assert_eq!(fixed(f64::NAN, 10, 4), "      -nan");
        assert_eq!(fixed(-f64::NAN, 7, 2), "   -nan");
        assert_eq!(fixed(0.125, 7, 2), "   0.12");
        assert_eq!(fixed(100.0, 7, 2), " 100.00");
        assert_eq!(fixed(-114.4, 7, 2), "-114.40");
    }

    #[test]
    fn space_flag() {
        let mut v = Vec::new();
        write_fixed_space(&mut v, 9.44, 8, 2);
        write_fixed_space(&mut v, -114.4, 8, 2);
        write_fixed_space(&mut v, 44.4, 7, 2);
        assert_eq!(String::from_utf8(v).unwrap(), "    9.44 -114.40  44.40");
    }

    #[test]
    fn g_matches_glibc() {
        // Values printed by /usr/games/dealer and by glibc printf("%g").
        assert_eq!(format_g(10.0437, 6), "10.0437");
        assert_eq!(format_g(19.6, 6), "19.6");
        assert_eq!(format_g(1_260_000.0, 6), "1.26e+06");
        assert_eq!(format_g(715_828_000.0, 6), "7.15828e+08");
        assert_eq!(format_g(5.0 / 3.0, 6), "1.66667");
        assert_eq!(format_g(11.0, 6), "11");
        assert_eq!(format_g(-431.656_123, 6), "-431.656");
        assert_eq!(format_g(f64::NAN, 6), "-nan");
        assert_eq!(format_g(0.0001, 6), "0.0001");
        assert_eq!(format_g(0.00001, 6), "1e-05");
        assert_eq!(format_g(999_999.5, 6), "1e+06");
        assert_eq!(format_g(123_456.0, 6), "123456");
        assert_eq!(format_g(0.0, 6), "0");
        assert_eq!(format_g(1e100, 6), "1e+100");
    }
}
