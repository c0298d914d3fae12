//! `balloc list processes|potentials|weights`.

use super::output::{Cell, Format, Table};
use anyhow::Result;
use serde_json::json;

/// What to list.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum What {
    /// Registered allocation processes.
    Processes,
    /// Registered potentials.
    Potentials,
    /// Weight laws.
    Weights,
    /// Theorem files under `theorems/` (id, kind, expected status, title).
    Theorems,
}

/// Arguments of `balloc list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to list.
    #[arg(value_enum)]
    what: What,
    /// Output format: text, json, or a table (name, parameters, summary, reference) as
    /// markdown, csv or latex.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Runs `balloc list`.
pub fn run(a: Args) -> Result<i32> {
    let rows: Vec<serde_json::Value> = match a.what {
        What::Processes => crate::app::list::processes(),
        What::Potentials => crate::app::list::potentials(),
        What::Theorems => {
            let root = super::root::theorems(None);
            let mut rows = Vec::new();
            for f in super::root::resolve(&[], &root)? {
                let t = crate::claim::load(&f, &root)?;
                rows.push(json!({
                    "name": t.id, "kind": t.file.kind.get_ref(), "expected": t.file.expected.name(),
                    "summary": t.file.title, "reference": t.file.source.as_ref().map_or("", |s| s.locator.as_str()),
                }));
            }
            rows
        }
        What::Weights => crate::app::list::weight_laws(),
    };
    match a.format {
        Format::Json => {
            crate::outln!("{}", serde_json::to_string_pretty(&rows)?);
            return Ok(0);
        }
        Format::Text => {}
        f => {
            let mut t = Table::new(&["name", "parameters", "summary", "reference"]);
            for r in &rows {
                t.push(vec![
                    Cell::text(r["name"].as_str().unwrap_or("")),
                    Cell::text(params_of(r)),
                    Cell::text(r["summary"].as_str().unwrap_or("")),
                    Cell::text(r["reference"].as_str().unwrap_or("")),
                ]);
            }
            let text = match f {
                Format::Latex => {
                    t.latex(Some("lp{0.2\\linewidth}p{0.4\\linewidth}p{0.2\\linewidth}"))
                }
                other => t.render(other)?,
            };
            crate::outln!("{text}");
            return Ok(0);
        }
    }
    for r in rows {
        let params = params_of(&r);
        let params = if params.is_empty() {
            params
        } else {
            format!("({params})")
        };
        crate::outln!("{}{}", r["name"].as_str().unwrap_or(""), params);
        crate::outln!("    {}", r["summary"].as_str().unwrap_or(""));
        if let Some(re) = r["reference"].as_str() {
            crate::outln!("    {re}");
        }
    }
    Ok(0)
}

/// The parameters of a row as `a=default, b` (empty when none).
fn params_of(r: &serde_json::Value) -> String {
    match &r["params"] {
        serde_json::Value::Array(ps) => {
            let v: Vec<String> = ps
                .iter()
                .map(|p| match p["default"].as_str() {
                    Some(d) => format!("{}={d}", p["name"].as_str().unwrap_or("")),
                    None => p["name"].as_str().unwrap_or("").to_string(),
                })
                .collect();
            v.join(", ")
        }
        serde_json::Value::String(s) => s.clone(),
        _ => String::new(),
    }
}
