//! (being written: issue 38)
use super::{QueryError, QuerySpec};
pub fn write(_spec: &QuerySpec) -> Result<String, QueryError> {
    Err(QueryError::BadWindow)
}
