//! What an error page says, in the page's language: the heading comes from the status
//! (`layout::error`), the explanation from here. The English page shows the error's own
//! text; the Dutch page a Dutch sentence, and for a refused query parameter its name with
//! the rule in Dutch.

use super::Lang;
use crate::error::ApiError;

/// The explanation an error page shows in `lang`; `None` for an internal error, whose cause
/// stays in the log.
pub fn detail(lang: Lang, err: &ApiError) -> Option<String> {
    if let ApiError::Internal(_) = err {
        return None;
    }
    if lang == Lang::En {
        return Some(err.to_string());
    }
    let text = match err {
        ApiError::NotFound(_) => "Op dit adres staat geen pagina.".to_string(),
        ApiError::Validation { errors, .. } if !errors.is_empty() => {
            let fields: Vec<String> = errors
                .iter()
                .map(|f| format!("{}: {}", f.field, dutch_rule(&f.message)))
                .collect();
            format!("Ongeldige parameter — {}.", fields.join("; "))
        }
        ApiError::MethodNotAllowed { .. } => {
            "De clubpagina's kunnen alleen worden opgevraagd (GET).".to_string()
        }
        ApiError::BadRequest(_) => "Het adres van deze pagina is niet geldig.".to_string(),
        ApiError::Unavailable(_) | ApiError::Busy { .. } => {
            "De server is even bezet; probeer het zo opnieuw.".to_string()
        }
        ApiError::Conflict(_) => "Deze pagina bestaat niet voor deze competitie.".to_string(),
        _ => "De pagina kon niet worden getoond.".to_string(),
    };
    Some(text)
}

/// A rule of the query parameters in Dutch (the English text is the error's own).
fn dutch_rule(message: &str) -> &'static str {
    match message {
        "must be nl or en" => "moet nl of en zijn",
        "must be 0 or 1" => "moet 0 of 1 zijn",
        "must be a round number from 1 to 999" => "moet een rondenummer van 1 tot 999 zijn",
        "given more than once" => "meer dan eens opgegeven",
        m if m.starts_with("at most") => "te lang",
        _ => "ongeldige waarde",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dutch_error_page_names_the_parameter_with_a_dutch_rule() {
        let err = ApiError::Validation {
            detail: "invalid query parameter: lang: must be nl or en".into(),
            errors: vec![crate::error::FieldError::new("lang", "must be nl or en")],
        };
        assert_eq!(
            detail(Lang::Nl, &err).as_deref(),
            Some("Ongeldige parameter — lang: moet nl of en zijn.")
        );
        assert_eq!(
            detail(Lang::En, &err).as_deref(),
            Some("invalid query parameter: lang: must be nl or en")
        );
        assert_eq!(detail(Lang::Nl, &ApiError::Internal("db".into())), None);
    }
}
