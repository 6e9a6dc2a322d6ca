//! TLS to a PostgreSQL server, by rustls: `prefer` and `require` encrypt
//! without verifying the certificate (as libpq's modes of those names);
//! `verify-full` checks it against `sslrootcert` or the bundled web roots.
//! (The MySQL driver builds its own rustls configuration from the same modes.)

use super::{DbError, TlsMode};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use std::path::Path;
use std::sync::Arc;

pub(super) fn client_config(mode: TlsMode, root_cert: Option<&Path>, at: &str) -> Result<ClientConfig, DbError> {
    let failed = |message: String| DbError::Driver { at: at.to_owned(), message };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| failed(format!("TLS: {e}")))?;
    if mode != TlsMode::VerifyFull {
        let verifier = Arc::new(Unverified(provider));
        return Ok(builder.dangerous().with_custom_certificate_verifier(verifier).with_no_client_auth());
    }
    let mut roots = RootCertStore::empty();
    match root_cert {
        Some(path) => {
            let unreadable = |e: &dyn std::fmt::Display| failed(format!("sslrootcert {}: {e}", path.display()));
            for cert in CertificateDer::pem_file_iter(path).map_err(|e| unreadable(&e))? {
                roots.add(cert.map_err(|e| unreadable(&e))?).map_err(|e| unreadable(&e))?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    Ok(builder.with_root_certificates(roots).with_no_client_auth())
}

/// Accepts any certificate (the signatures of the handshake are still checked).
#[derive(Debug)]
struct Unverified(Arc<CryptoProvider>);

impl ServerCertVerifier for Unverified {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.0.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}
