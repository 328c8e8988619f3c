from django.urls import path

from agents.apis import AgentMeApi

urlpatterns = [
    path("agents/me", AgentMeApi.as_view(), name="agents-me"),
]
