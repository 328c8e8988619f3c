# RecMem image for the multi-machine topology of docs/deployment.md (web: gunicorn; worker: manage.py qcluster).
# Models ship inside Python wheels (MiniLM, spaCy): nothing is downloaded when a container starts.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 RECMEM_HOME=/data RECMEM_STATIC_ROOT=/app/static
WORKDIR /app

# CPU torch, pinned: an unpinned torch pulls a multi-GB CUDA build.
RUN pip install "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu
COPY pyproject.toml README.md manage.py ./
COPY core core
COPY agents agents
COPY governance governance
COPY memory memory
COPY recmem_site recmem_site
COPY bench bench
COPY testing testing
RUN pip install ".[otel,redis]"
# Admin and Swagger UI assets, served by whitenoise from the image.
RUN DJANGO_SECRET_KEY=build-only python manage.py collectstatic --no-input -v 0

VOLUME /data
EXPOSE 8000
CMD ["sh", "-c", "exec gunicorn recmem_site.wsgi:application --bind 0.0.0.0:8000 --workers ${RECMEM_WEB_WORKERS:-2} --threads ${RECMEM_WEB_THREADS:-4} --timeout 120 --access-logfile -"]
