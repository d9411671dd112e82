// Re-embed the migrations when their SQL changes (embed_migrations! does not track edits).
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
