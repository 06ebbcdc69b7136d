"""Worker entry point: `celery -A workers.worker worker` (and `... beat`)."""
from service.web import create_app

celery_app = create_app().extensions["celery"]
