"""Mail: composing and sending turn emails, and reading replies."""
