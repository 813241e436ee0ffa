"""What every role of the service uses: its errors and request bounds, background tasks, the injectable clock,
structured logs and the secrets kept out of them."""
