//! The JSON conventions of the command-line contract: a number is a JSON number when it is
//! finite, else `null`; a value that may exceed the range of f64 is written with its natural
//! logarithm beside it (`log_key`, or `log_abs_key` and `key_sign` for a signed quantity).

use crate::xfloat::XFloat;
use serde_json::{Map, Value, json};

/// A JSON number, or null when it is not finite (−∞ for ln 0).
///
/// ```
/// use balloc::app::json::json_f64;
/// assert_eq!(json_f64(0.5), serde_json::json!(0.5));
/// assert_eq!(json_f64(f64::NEG_INFINITY), serde_json::Value::Null); // ln 0
/// ```
pub fn json_f64(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// Inserts `key` (the value if representable as f64, else null) and `log_key` (ln |value|) and,
/// for a signed quantity, `log_abs_key` and `key_sign` instead of `log_key`.
///
/// ```
/// use balloc::app::json::put_scaled;
/// use balloc::xfloat::XFloat;
/// let mut o = serde_json::Map::new();
/// // e^{1000} is beyond f64 (max ≈ e^{709.78}): null, with ln = 1000 beside it.
/// put_scaled(&mut o, "value", &XFloat::exp_of(1000.0), false);
/// assert_eq!(o["value"], serde_json::Value::Null);
/// assert!((o["log_value"].as_f64().unwrap() - 1000.0).abs() < 1e-9);
/// put_scaled(&mut o, "change", &XFloat::from_f64(-2.0), true);
/// assert_eq!((o["change"].as_f64(), o["change_sign"].as_f64()), (Some(-2.0), Some(-1.0)));
/// assert!((o["log_abs_change"].as_f64().unwrap() - 2f64.ln()).abs() < 1e-15);
/// ```
pub fn put_scaled(obj: &mut Map<String, Value>, key: &str, v: &XFloat, signed: bool) {
    obj.insert(
        key.into(),
        v.to_f64_checked().map_or(Value::Null, |x| json!(x)),
    );
    let ln = v.ln_abs();
    if signed {
        obj.insert(format!("log_abs_{key}"), json_f64(ln));
        obj.insert(format!("{key}_sign"), json!(v.signum()));
    } else {
        obj.insert(format!("log_{key}"), json_f64(ln));
    }
}
