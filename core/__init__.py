"""The ground floor: no models, no HTTP. Domain errors, the typed configuration, small shared helpers.

Every app may import ``core``; ``core`` imports no app.
"""
