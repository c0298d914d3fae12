//! The number types the generic code runs in (`f64` and [`Q`]): [`Field`] and the conversion of
//! machine integers, [`FromMachineInt`].

use super::{Int, Q};
use num_traits::Num;

/// A number type the generic code (conditions, load normalisation, group potentials) is
/// evaluated in: `f64` or [`Q`].
pub trait Field: Clone + PartialOrd + Num + FromMachineInt + std::fmt::Debug {}
impl<T: Clone + PartialOrd + Num + FromMachineInt + std::fmt::Debug> Field for T {}

/// Machine integers (counts, loads) as values of a [`Field`]: the part of
/// `num_traits::FromPrimitive` the generic code uses, for `f64` (rounded to nearest) and `Q`
/// (exact).
///
/// ```
/// use balloc::exact::FromMachineInt;
/// use balloc::exact::Q;
/// assert_eq!(<f64 as FromMachineInt>::from_usize(12), Some(12.0));
/// assert_eq!(<Q as FromMachineInt>::from_i64(-3).unwrap().to_string(), "-3");
/// ```
pub trait FromMachineInt: Sized {
    /// The value `v`.
    fn from_i64(v: i64) -> Option<Self>;
    /// The value `v`.
    fn from_usize(v: usize) -> Option<Self>;
}

impl FromMachineInt for f64 {
    fn from_i64(v: i64) -> Option<f64> {
        Some(v as f64)
    }
    fn from_usize(v: usize) -> Option<f64> {
        Some(v as f64)
    }
}

impl FromMachineInt for Q {
    fn from_i64(v: i64) -> Option<Q> {
        Some(Q::from_integer(Int::from(v)))
    }
    fn from_usize(v: usize) -> Option<Q> {
        Some(Q::from_integer(Int::from(v)))
    }
}
