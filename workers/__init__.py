"""Background work: Celery, configured from the Flask app (Flask's documented pattern)."""
