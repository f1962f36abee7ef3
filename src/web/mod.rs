//! The browser's bindings (issue 39's layer "web"): storage, clipboard and downloads, time
//! zones from Intl, the canvas backend for plotters, the panic banner, the scroll signal,
//! the service worker's registration.

pub mod browser;
pub mod canvas_backend;
pub mod offline;
pub mod scroll_signal;
pub mod time_zones;
