//! The application layer: typed requests and reports shared by the command line
//! ([`crate::cli`], feature `cli`) and the Python package, so that neither repeats the other.
//!
//! A request is built from arguments already split by the caller (clap's, or a Python call's
//! keyword arguments), is validated with the command line's one-line messages (each naming its
//! argument, e.g. `--process: …`), and runs; its report renders itself as the JSON document of
//! the command-line contract (`--format json`), which the Python objects' `to_dict()` return
//! unchanged. The text and table renderings stay with the command line.
//!
//! | module | command | request → report |
//! |---|---|---|
//! | [`expect`] | `balloc expect` | [`expect::ExpectRequest`] → [`expect::ExpectReport`] |
//! | [`constant`] | `balloc constant` | a constant finder's report → [`constant::ConstantAnswer`] |
//! | [`list`] | `balloc list` | the registries as rows |
//! | [`loads`] | every `--loads` argument | the text `X1,X2,...` or `@FILE` → [`crate::loads::Loads`] |
//! | [`json`] | every `--format json` | numbers beyond f64 as null with their logarithm |
//! | [`simulate`] | `balloc simulate` | process, n, balls and the plan's options → [`simulate::SimulateRequest`] → [`crate::sim::SimOutput`] |
//! | [`sweep`] | `balloc sweep` | a grid file → [`sweep::Sweep`], run by shard ([`sweep::Shard`]) into its CSV files, resumable, or merged |
//! | [`pvec`] | `balloc pvec` | the process and n or loads → [`pvec::PvecReport`] (with [`pvec::C1Report`], [`pvec::C2Report`]) |

pub mod constant;
pub mod expect;
pub mod json;
pub mod list;
pub mod loads;
pub mod pvec;
pub mod simulate;
pub mod sweep;
