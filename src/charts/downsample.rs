//! Downsampling for drawing: one (min, max) pair per pixel column, so a year of
//! per-minute data draws in one frame without ever dropping a peak or a trough.

/// The index range `[start, end)` of column `i` when `n` values are spread over
/// `columns` columns (every value in exactly one column; columns never empty when
/// `n >= columns`).
pub fn column_bounds(n: usize, columns: usize, i: usize) -> (usize, usize) {
    if columns == 0 || n == 0 {
        return (0, 0);
    }
    let c = columns.min(n);
    let start = (i as u128 * n as u128 / c as u128) as usize;
    let end = ((i as u128 + 1) * n as u128 / c as u128) as usize;
    (start.min(n), end.min(n))
}

/// (min, max) of each of `min(columns, values.len())` consecutive columns of `values`.
/// Non-finite values are skipped; a column with none left gives (0, 0).
/// With fewer values than columns every value is its own column.
pub fn minmax_columns(values: &[f64], columns: usize) -> Vec<(f64, f64)> {
    let n = values.len();
    if n == 0 || columns == 0 {
        return Vec::new();
    }
    let c = columns.min(n);
    (0..c)
        .map(|i| {
            let (a, b) = column_bounds(n, c, i);
            let mut lo = f64::INFINITY;
            let mut hi = f64::NEG_INFINITY;
            for &v in &values[a..b] {
                if v.is_finite() {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
            if lo <= hi {
                (lo, hi)
            } else {
                (0.0, 0.0)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_every_peak_and_trough() {
        // 10 000 values of 1 with a single spike of 9 and a single dip to 0.
        let mut v = vec![1.0; 10_000];
        v[4_321] = 9.0;
        v[7_777] = 0.0;
        let cols = minmax_columns(&v, 300);
        assert_eq!(cols.len(), 300);
        let max = cols.iter().map(|c| c.1).fold(f64::MIN, f64::max);
        let min = cols.iter().map(|c| c.0).fold(f64::MAX, f64::min);
        assert_eq!((min, max), (0.0, 9.0));
        // Exactly one column sees the spike, and it is the one holding index 4321.
        let spiky: Vec<usize> = (0..300).filter(|&i| cols[i].1 == 9.0).collect();
        assert_eq!(spiky.len(), 1);
        let (a, b) = column_bounds(10_000, 300, spiky[0]);
        assert!((a..b).contains(&4_321));
    }

    #[test]
    fn columns_partition_the_values() {
        for (n, c) in [(10, 3), (7, 7), (1000, 999), (5, 1), (525_600, 1_200)] {
            let mut next = 0;
            for i in 0..c.min(n) {
                let (a, b) = column_bounds(n, c, i);
                assert_eq!(a, next);
                assert!(b > a, "empty column {i} of {c} for {n}");
                next = b;
            }
            assert_eq!(next, n);
        }
    }

    #[test]
    fn short_and_degenerate_inputs() {
        assert!(minmax_columns(&[], 10).is_empty());
        assert!(minmax_columns(&[1.0], 0).is_empty());
        assert_eq!(
            minmax_columns(&[3.0, 1.0], 10),
            vec![(3.0, 3.0), (1.0, 1.0)]
        );
        assert_eq!(minmax_columns(&[f64::NAN, f64::NAN], 1), vec![(0.0, 0.0)]);
        assert_eq!(
            minmax_columns(&[f64::NAN, 2.0, f64::INFINITY, 5.0], 2),
            vec![(2.0, 2.0), (5.0, 5.0)]
        );
    }
}
