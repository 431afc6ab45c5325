//! An error as the page shows it ([`ErrorBody`]): the CLI's words, split
//! into their parts, each input error beside the control of its key.

use serde::Serialize;

use crate::error::{Error, InputError};

/// One error as the form shows it: beside the control of `key`, in words
/// about the form (what is wrong, what would be accepted, a close match),
/// without the file and line the CLI gives.
#[derive(Clone, Debug, Serialize)]
pub struct FormError {
    /// The dotted key, e.g. `units.tercio.kind`.
    pub key: Option<String>,
    /// What is wrong, what would be accepted and a close match.
    pub text: String,
}

impl FormError {
    /// The form's words of `e` alone (not of the errors in its `more`).
    pub(crate) fn of(e: &InputError) -> FormError {
        let mut text = e.message.clone();
        if let Some(a) = &e.accepted {
            text.push_str(&format!("\n  accepted: {a}"));
        }
        if let Some(s) = &e.suggestion {
            text.push_str(&format!("\n  did you mean `{s}`?"));
        }
        FormError {
            key: e.key.clone(),
            text,
        }
    }

    /// The form's words of `e` and of each further error it carries.
    fn all(e: &InputError) -> Vec<FormError> {
        std::iter::once(e)
            .chain(e.more.iter())
            .map(FormError::of)
            .collect()
    }
}

/// An error as the page shows it: the CLI's words, split into their parts
/// so that the page can put it beside the control of `key`.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorBody {
    /// `input` (bad input: exit 2 on the CLI), `busy`, `cancelled`,
    /// `timeout`, `too-large` or `internal`.
    pub kind: &'static str,
    /// The whole message, as the CLI prints it after `error: `.
    pub message: String,
    /// The dotted key, e.g. `units.tercio.kind`.
    pub key: Option<String>,
    /// The line in the TOML text.
    pub line: Option<usize>,
    /// What is wrong.
    pub what: Option<String>,
    /// What would be accepted.
    pub accepted: Option<String>,
    /// A close match.
    pub suggestion: Option<String>,
    /// Each error of the input, as the form shows it beside its control
    /// (empty for an error that is not the input's).
    pub errors: Vec<FormError>,
}

impl ErrorBody {
    /// An error of `kind` with only a message.
    pub fn plain(kind: &'static str, message: impl Into<String>) -> ErrorBody {
        ErrorBody {
            kind,
            message: message.into(),
            key: None,
            line: None,
            what: None,
            accepted: None,
            suggestion: None,
            errors: Vec::new(),
        }
    }
}

impl From<Error> for ErrorBody {
    fn from(e: Error) -> ErrorBody {
        match &e {
            Error::Input(i) => ErrorBody {
                kind: "input",
                message: e.to_string(),
                key: i.key.clone(),
                line: i.line,
                what: Some(i.message.clone()),
                accepted: i.accepted.clone(),
                suggestion: i.suggestion.clone(),
                errors: FormError::all(i),
            },
            Error::Stopped => cancelled(),
            _ => ErrorBody::plain("internal", e.to_string()),
        }
    }
}

impl From<InputError> for ErrorBody {
    fn from(e: InputError) -> ErrorBody {
        Error::from(e).into()
    }
}

/// The answer of a cancelled request.
pub fn cancelled() -> ErrorBody {
    ErrorBody::plain(
        "cancelled",
        "cancelled: a newer request from the same page replaced this one",
    )
}
