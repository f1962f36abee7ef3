//! Colours: Okabe–Ito (safe for the common colour-vision deficiencies), in a light and a
//! dark variant matching `style/base.css`. Colour is never the only signal: every line
//! also differs by dash pattern or marker, and every marker carries a text label.

use plotters::style::RGBColor;

/// The colours of one scheme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    /// Chart background (the card surface, so the PNG looks like the page).
    pub background: RGBColor,
    pub text: RGBColor,
    pub muted: RGBColor,
    pub grid: RGBColor,
    /// The data itself: usage, load-duration curve, C(N). Solid.
    pub series: RGBColor,
    /// Average line. Dashed.
    pub average: RGBColor,
    /// Minimum stable waterline. Dotted.
    pub waterline: RGBColor,
    /// Recommended / committed N. Solid, thick.
    pub recommended: RGBColor,
    /// Break-even line H*. Dashed.
    pub breakeven: RGBColor,
    /// Optimal N* marker (circle) and the flat region near it.
    pub optimal: RGBColor,
    /// Monthly price line (chart 5). Solid.
    pub monthly: RGBColor,
    /// On-demand cost line (chart 5). Dashed.
    pub on_demand: RGBColor,
    /// Weekend shading (drawn with low opacity).
    pub weekend: RGBColor,
    /// Budget segments: fixed, elastic, spot and emergency.
    pub fixed: RGBColor,
    pub elastic: RGBColor,
    pub spot: RGBColor,
    /// The GPU types of a mixed fleet in chart 1 (stacked bands and their committed lines),
    /// in the fleet's order. Neighbours in the stack are neighbours here, so they always
    /// differ; the first ones (the common two- and three-type fleets) contrast most with
    /// the background (3:1 for the first five). Each band is also named in the legend and each line labelled.
    pub types: [RGBColor; 8],
}

const BLACK: RGBColor = RGBColor(0, 0, 0);
const ORANGE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
const SKY: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
const GREEN: RGBColor = RGBColor(0x00, 0x9E, 0x73);
const YELLOW: RGBColor = RGBColor(0xF0, 0xE4, 0x42);
const BLUE: RGBColor = RGBColor(0x00, 0x72, 0xB2);
const VERMILLION: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
const PURPLE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);

impl Palette {
    pub const LIGHT: Palette = Palette {
        background: RGBColor(0xFF, 0xFF, 0xFF),
        text: RGBColor(0x1B, 0x1F, 0x23),
        muted: RGBColor(0x57, 0x60, 0x6A),
        grid: RGBColor(0xD0, 0xD7, 0xDE),
        series: BLUE,
        average: ORANGE,
        waterline: GREEN,
        recommended: VERMILLION,
        breakeven: PURPLE,
        optimal: VERMILLION,
        monthly: BLUE,
        on_demand: ORANGE,
        weekend: RGBColor(0x8C, 0x95, 0x9F),
        fixed: BLUE,
        elastic: ORANGE,
        spot: GREEN,
        types: [
            BLUE,
            VERMILLION,
            GREEN,
            PURPLE,
            RGBColor(0x57, 0x60, 0x6A),
            ORANGE,
            SKY,
            YELLOW,
        ],
    };

    /// Lighter members of the same families on the dark card surface.
    pub const DARK: Palette = Palette {
        background: RGBColor(0x1B, 0x20, 0x27),
        text: RGBColor(0xE6, 0xE8, 0xEB),
        muted: RGBColor(0xA3, 0xAC, 0xB7),
        grid: RGBColor(0x3A, 0x43, 0x4E),
        series: SKY,
        average: ORANGE,
        waterline: RGBColor(0x2F, 0xC4, 0x97),
        recommended: RGBColor(0xFF, 0x8A, 0x3D),
        breakeven: PURPLE,
        optimal: RGBColor(0xFF, 0x8A, 0x3D),
        monthly: SKY,
        on_demand: YELLOW,
        weekend: RGBColor(0x8C, 0x95, 0x9F),
        fixed: SKY,
        elastic: ORANGE,
        spot: RGBColor(0x2F, 0xC4, 0x97),
        types: [
            SKY,
            RGBColor(0xFF, 0x8A, 0x3D),
            RGBColor(0x2F, 0xC4, 0x97),
            PURPLE,
            YELLOW,
            ORANGE,
            RGBColor(0xA3, 0xAC, 0xB7),
            RGBColor(0x4C, 0x9B, 0xE8),
        ],
    };

    /// Hex form as the SVG backend writes it ("#0072B2").
    pub fn hex(c: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    /// Black or white, whichever reads better on `c` (labels inside bars).
    pub fn on(c: RGBColor) -> RGBColor {
        let l = 0.2126 * c.0 as f64 + 0.7152 * c.1 as f64 + 0.0722 * c.2 as f64;
        if l > 140.0 {
            BLACK
        } else {
            RGBColor(0xFF, 0xFF, 0xFF)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_drawn_together_have_distinct_colours() {
        for p in [Palette::LIGHT, Palette::DARK] {
            let together = [
                [p.series, p.average, p.waterline, p.recommended],
                [p.series, p.breakeven, p.optimal, p.grid],
                [p.monthly, p.on_demand, p.breakeven, p.text],
                [p.fixed, p.elastic, p.spot, p.background],
            ];
            for group in together {
                for i in 0..group.len() {
                    for j in i + 1..group.len() {
                        assert_ne!(group[i], group[j]);
                    }
                }
            }
        }
    }

    #[test]
    fn fleet_types_have_distinct_colours_that_stand_out() {
        // Relative luminance (WCAG) and the contrast ratio of two colours.
        fn lum(c: RGBColor) -> f64 {
            let ch = |v: u8| {
                let s = f64::from(v) / 255.0;
                if s <= 0.039_28 {
                    s / 12.92
                } else {
                    ((s + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * ch(c.0) + 0.7152 * ch(c.1) + 0.0722 * ch(c.2)
        }
        let ratio = |a: RGBColor, b: RGBColor| {
            let (x, y) = (lum(a), lum(b));
            (x.max(y) + 0.05) / (x.min(y) + 0.05)
        };
        for p in [Palette::LIGHT, Palette::DARK] {
            for i in 0..8 {
                assert_ne!(p.types[i], p.background);
                for j in i + 1..8 {
                    assert_ne!(p.types[i], p.types[j], "types {i} and {j}");
                }
            }
            // The first five meet the 3:1 of WCAG 1.4.11 against the card (the dark scheme's
            // all eight); a band is also named in the legend and its line labelled in text.
            for (i, &c) in p.types[..5].iter().enumerate() {
                assert!(
                    ratio(c, p.background) >= 3.0,
                    "type {i}: {}",
                    ratio(c, p.background)
                );
            }
        }
    }

    #[test]
    fn label_colour_contrasts() {
        assert_eq!(Palette::on(YELLOW), BLACK);
        assert_eq!(Palette::on(BLUE), RGBColor(0xFF, 0xFF, 0xFF));
        assert_eq!(Palette::hex(BLUE), "#0072B2");
    }
}
