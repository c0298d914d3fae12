//! Correctly rounded enclosures of `e^q` for exact rationals `q`, cached by the argument (tied
//! bins share one enclosure).

use super::Interval;
use crate::error::Result;
use crate::exact::Q;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Correctly rounded `e^{q}` enclosures, cached by the exact argument.
///
/// ```
/// use balloc::enclosure::ExpCache;
/// use balloc::exact::int;
/// let c = ExpCache::new(64);
/// let e = c.exp(&int(1)).unwrap();
/// assert!(e.contains_f64(std::f64::consts::E) || e.rel_width() < 1e-18);
/// assert_eq!(c.exp(&int(1)).unwrap(), e); // the cached enclosure
/// ```
pub struct ExpCache {
    prec: u64,
    map: RefCell<BTreeMap<Q, Interval>>,
}

impl ExpCache {
    /// An empty cache at `prec` bits.
    pub fn new(prec: u64) -> ExpCache {
        ExpCache {
            prec,
            map: RefCell::new(BTreeMap::new()),
        }
    }

    /// The working precision.
    pub fn prec(&self) -> u64 {
        self.prec
    }

    /// An enclosure of `e^{q}`.
    pub fn exp(&self, q: &Q) -> Result<Interval> {
        if let Some(v) = self.map.borrow().get(q) {
            return Ok(v.clone());
        }
        let v = Interval::exp_of(q, self.prec)?;
        self.map.borrow_mut().insert(q.clone(), v.clone());
        Ok(v)
    }
}
