//! The rows of a table in a card's presentation: `count` rows, each built by `row(i)` and
//! reading its own cells (`context::text_at`), so a price change rewrites only the cells that
//! changed; the rows are built again only when their number changes. One component for
//! every table (the row builder is type-erased), unlike a `<For>` per table.

use std::sync::Arc;

use leptos::prelude::*;

/// Builds row `i`.
pub type RowFn = Arc<dyn Fn(usize) -> AnyView + Send + Sync>;

#[component]
pub fn Rows(count: Memo<usize>, row: RowFn) -> impl IntoView {
    move || (0..count.get()).map(|i| row(i)).collect::<Vec<_>>()
}
