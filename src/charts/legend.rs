//! Chart legends drawn through the backend (measured with the backend's text metrics, so a
//! canvas measures with `measureText`, never a hidden `<span>`), with the room they need and
//! the corner that covers the least of the chart.

use plotters::prelude::*;

use super::*;

/// A legend's type and spacing, device pixels: one place for `size` and `draw`.
struct Metrics<'s> {
    font: TextStyle<'s>,
    margin: i32,
    swatch_w: i32,
    line_h: i32,
}

impl<'s> Metrics<'s> {
    fn of(style: &'s ChartStyle) -> Self {
        Self {
            font: style.font(11.5),
            margin: style.pxi(6.0),
            swatch_w: style.pxi(28.0),
            line_h: (style.font_px(11.5) * 1.25).round() as i32,
        }
    }
}

/// How one legend entry's swatch is drawn, at the left middle of its line.
type Swatch<'a, DB> = Box<dyn Fn((i32, i32)) -> DynElement<'a, DB, (i32, i32)> + 'a>;

/// A chart's legend: labels with their swatches, in order.
///
/// Not plotters' `.label().legend()` + `configure_series_labels()`: that measures its text
/// with plotters' font code directly, which on wasm is a hidden `<span>` and a forced page
/// layout per label. This one measures through the backend (`estimate_text_size`), which
/// the page's canvas backend answers with `measureText`.
pub(crate) struct Legend<'a, DB: DrawingBackend> {
    /// Label, swatch, and whether the chart also labels it in place.
    entries: Vec<(String, Swatch<'a, DB>, bool)>,
}

impl<'a, DB: DrawingBackend + 'a> Legend<'a, DB> {
    pub(crate) fn new() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    /// One more entry below the others.
    pub(crate) fn add<E, F>(&mut self, label: impl Into<String>, swatch: F)
    where
        E: IntoDynElement<'a, DB, (i32, i32)>,
        F: Fn((i32, i32)) -> E + 'a,
    {
        self.entries
            .push((label.into(), Box::new(move |p| swatch(p).into_dyn()), false));
    }

    /// One more entry for something the chart also labels in place (a marker with its text
    /// beside it): `compact` may leave it out.
    pub(crate) fn add_labelled<E, F>(&mut self, label: impl Into<String>, swatch: F)
    where
        E: IntoDynElement<'a, DB, (i32, i32)>,
        F: Fn((i32, i32)) -> E + 'a,
    {
        self.add(label, swatch);
        if let Some(last) = self.entries.last_mut() {
            last.2 = true;
        }
    }

    /// On a canvas where the box would take more than `max_share` of the plotting area's
    /// height (a phone's), keep only the entries the chart does not label in place.
    pub(crate) fn compact(
        &mut self,
        chart: &Plot<'_, DB>,
        style: &ChartStyle,
        max_share: f64,
    ) -> Result<(), ChartError> {
        let area = chart.plotting_area().strip_coord_spec();
        let (_, h) = self.size(&area, style)?;
        if f64::from(h) > max_share * f64::from(area.dim_in_pixel().1) {
            self.entries.retain(|e| !e.2);
        }
        Ok(())
    }

    /// The box's width and height in device pixels, as `draw` lays it out.
    pub(crate) fn size<C: CoordTranslate>(
        &self,
        area: &DrawingArea<DB, C>,
        style: &ChartStyle,
    ) -> Result<(i32, i32), ChartError> {
        let Metrics {
            font,
            margin,
            swatch_w,
            line_h,
        } = Metrics::of(style);
        let mut text_w = 0;
        for (label, _, _) in &self.entries {
            let (w, _) = area.estimate_text_size(label, &font).chart()?;
            text_w = text_w.max(w as i32);
        }
        Ok((
            text_w + swatch_w + 2 * margin,
            line_h * self.entries.len() as i32 + 2 * margin,
        ))
    }

    /// The room the box needs inside the plotting area, device pixels: its size plus the
    /// gap on both sides (what `axis_end_for_legend` must leave free).
    pub(crate) fn footprint(
        &self,
        area: &DrawingArea<DB, Shift>,
        style: &ChartStyle,
    ) -> Result<(f64, f64), ChartError> {
        let (w, h) = self.size(area, style)?;
        let gaps = 2 * Self::gap(style);
        Ok((f64::from(w + gaps), f64::from(h + gaps)))
    }

    /// The space between the box and the plotting area's edges, device pixels.
    pub(crate) fn gap(style: &ChartStyle) -> i32 {
        style.pxi(5.0)
    }

    /// The box's top-left corner, relative to the plotting area (`area` and `size` wide/tall).
    fn origin(
        position: &SeriesLabelPosition,
        (aw, ah): (i32, i32),
        (w, h): (i32, i32),
        gap: i32,
    ) -> (i32, i32) {
        use SeriesLabelPosition::*;
        let x = match position {
            UpperLeft | MiddleLeft | LowerLeft => gap,
            UpperMiddle | MiddleMiddle | LowerMiddle => (aw - w) / 2,
            UpperRight | MiddleRight | LowerRight => aw - w - gap,
            Coordinate(x, _) => *x,
        };
        let y = match position {
            UpperLeft | UpperMiddle | UpperRight => gap,
            MiddleLeft | MiddleMiddle | MiddleRight => (ah - h) / 2,
            LowerLeft | LowerMiddle | LowerRight => ah - h - gap,
            Coordinate(_, y) => *y,
        };
        (x, y)
    }

    /// Draw the box in whichever of `corners` covers the fewest of `points` (data
    /// coordinates: what the chart drew, with lines sampled between their vertices by
    /// `along`); ties go to the earlier corner. A phone's short, narrow canvas leaves no
    /// fixed corner free for every history.
    pub(crate) fn draw_clear(
        &self,
        chart: &Plot<'_, DB>,
        style: &ChartStyle,
        corners: &[SeriesLabelPosition],
        points: &[(f64, f64)],
    ) -> Result<(), ChartError> {
        let plot = chart.plotting_area();
        let (aw, ah) = plot.dim_in_pixel();
        let base = plot.get_base_pixel();
        let size = self.size(&plot.strip_coord_spec(), style)?;
        let pixels: Vec<(i32, i32)> = points
            .iter()
            .map(|p| {
                let (x, y) = chart.backend_coord(p);
                (x - base.0, y - base.1)
            })
            .collect();
        let gap = Self::gap(style);
        let covered = |c: &SeriesLabelPosition| {
            let (x, y) = Self::origin(c, (aw as i32, ah as i32), size, gap);
            let (x0, y0, x1, y1) = (x - gap, y - gap, x + size.0 + gap, y + size.1 + gap);
            pixels
                .iter()
                .filter(|&&(px, py)| px >= x0 && px <= x1 && py >= y0 && py <= y1)
                .count()
        };
        let mut best = None;
        for c in corners {
            let n = covered(c);
            if best.as_ref().is_none_or(|(_, m)| n < *m) {
                best = Some((c, n));
            }
        }
        match best {
            Some((c, _)) => self.draw(chart, style, c.clone()),
            None => Ok(()),
        }
    }

    /// The box in the corner given (inside the plotting area): background, border, one
    /// line per entry with its swatch on the left.
    pub(crate) fn draw(
        &self,
        chart: &Plot<'_, DB>,
        style: &ChartStyle,
        position: SeriesLabelPosition,
    ) -> Result<(), ChartError> {
        if self.entries.is_empty() {
            return Ok(());
        }
        let p = &style.palette;
        let area = chart.plotting_area().strip_coord_spec();
        let Metrics {
            font,
            margin,
            swatch_w,
            line_h,
        } = Metrics::of(style);
        let (w, h) = self.size(&area, style)?;
        let (aw, ah) = area.dim_in_pixel();
        let (aw, ah) = (aw as i32, ah as i32);
        let (x, y) = Self::origin(&position, (aw, ah), (w, h), Self::gap(style));
        let corners = [(x, y), (x + w, y + h)];
        area.draw(&Rectangle::new(corners, p.background.mix(0.88).filled()))
            .chart()?;
        area.draw(&Rectangle::new(corners, style.stroke(p.grid, 1.0)))
            .chart()?;
        let anchored = font.pos(Pos::new(HPos::Left, VPos::Center));
        for (i, (label, swatch, _)) in self.entries.iter().enumerate() {
            let mid = y + margin + line_h * i as i32 + line_h / 2;
            area.draw(&swatch((x + margin, mid))).chart()?;
            area.draw(&Text::new(
                label.as_str(),
                (x + margin + swatch_w, mid),
                anchored.clone(),
            ))
            .chart()?;
        }
        Ok(())
    }
}
