//! The JWT secret: `JWT_SECRET`, or one generated on first start and kept in the data folder.

use crate::config::Config;
use base64::Engine;

/// Returns the signing secret, generating and storing one when none is configured.
pub fn jwt_secret(config: &Config) -> Result<Vec<u8>, String> {
    if let Some(s) = &config.jwt_secret {
        return Ok(s.as_bytes().to_vec());
    }
    let path = config.data_dir.join("jwt_secret");
    if let Ok(existing) = std::fs::read_to_string(&path) {
        let t = existing.trim();
        if t.len() >= 32 {
            return Ok(t.as_bytes().to_vec());
        }
    }
    std::fs::create_dir_all(&config.data_dir)
        .map_err(|e| format!("cannot create {}: {e}", config.data_dir.display()))?;
    let mut bytes = [0u8; 48];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for the JWT secret: {e}"))?;
    let secret = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    write_private(&path, &secret)?;
    tracing::warn!(
        path = %path.display(),
        "JWT_SECRET is not set: generated a secret and kept it in the data folder; \
         set JWT_SECRET when running several instances"
    );
    Ok(secret.into_bytes())
}

fn write_private(path: &std::path::Path, content: &str) -> Result<(), String> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    f.write_all(content.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// HMAC-SHA256 of `message` under `key`: the one signing function of the links and codes the
/// server makes from its secret (check-in codes, unsubscribe links).
#[allow(clippy::expect_used, reason = "HMAC accepts a key of any length")]
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    use hmac::{Hmac, KeyInit, Mac};
    let mut mac = <Hmac<sha2::Sha256> as KeyInit>::new_from_slice(key).expect("any key length");
    mac.update(message);
    mac.finalize().into_bytes().into()
}
