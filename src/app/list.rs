//! `balloc list` and the Python `processes()`, `potentials()`, `weight_laws()`: the registries
//! as rows of the command line's `--format json`.

use serde_json::{Value, json};

/// The registered processes: `name`, `aliases`, `params` (`name`, `default`, `doc`),
/// `rank_based`, `summary`, `reference`.
///
/// ```
/// let rows = balloc::app::list::processes();
/// let two = rows.iter().find(|r| r["name"] == "two-choice").unwrap();
/// assert_eq!(two["rank_based"], true);
/// assert_eq!(rows.len(), balloc::process::REGISTRY.len());
/// ```
pub fn processes() -> Vec<Value> {
    crate::process::REGISTRY
        .iter()
        .map(|i| {
            json!({
                "name": i.name, "aliases": i.aliases,
                "params": i.params.iter().map(|p| json!({"name": p.name, "default": p.default, "doc": p.doc})).collect::<Vec<_>>(),
                "rank_based": i.rank_based, "summary": i.summary, "reference": i.reference,
            })
        })
        .collect()
}

/// The registered potentials: `name`, `aliases`, `params`, `summary`, `reference`.
///
/// ```
/// let rows = balloc::app::list::potentials();
/// assert!(rows.iter().any(|r| r["name"] == "quadratic"));
/// assert_eq!(rows.len(), balloc::potential::REGISTRY.len());
/// ```
pub fn potentials() -> Vec<Value> {
    crate::potential::REGISTRY
        .iter()
        .map(|i| {
            json!({
                "name": i.name, "aliases": i.aliases,
                "params": i.params.iter().map(|p| json!({"name": p.name, "default": p.default, "doc": p.doc})).collect::<Vec<_>>(),
                "summary": i.summary, "reference": i.reference,
            })
        })
        .collect()
}

/// The weight laws: `name`, `params`, `summary`.
///
/// ```
/// let rows = balloc::app::list::weight_laws();
/// assert_eq!(rows.len(), balloc::weights::WEIGHT_LAWS.len());
/// assert!(rows.iter().any(|r| r["name"] == "unit"));
/// ```
pub fn weight_laws() -> Vec<Value> {
    crate::weights::WEIGHT_LAWS
        .iter()
        .map(|(name, params, summary)| json!({"name": name, "params": params, "summary": summary}))
        .collect()
}
