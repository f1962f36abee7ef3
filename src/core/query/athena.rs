//! (being written: issue 38)
use super::{QueryError, QuerySpec};
pub fn write(_spec: &QuerySpec, _cur2: bool) -> Result<String, QueryError> {
    Err(QueryError::BadWindow)
}
