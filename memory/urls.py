from django.urls import path

from memory import apis

urlpatterns = [
    path("sessions", apis.SessionListCreateApi.as_view(), name="sessions"),
    path("sessions/<str:session_id>", apis.SessionDetailApi.as_view(), name="session-detail"),
    path("sessions/<str:session_id>/exchanges", apis.SessionExchangesApi.as_view(), name="session-exchanges"),
    path("sessions/<str:session_id>/close", apis.SessionCloseApi.as_view(), name="session-close"),
    path("exchanges", apis.ExchangeListApi.as_view(), name="exchanges"),
    path("exchanges/<str:exchange_id>", apis.ExchangeDetailApi.as_view(), name="exchange-detail"),
    path("episodes", apis.EpisodeListApi.as_view(), name="episodes"),
    path("episodes/<str:episode_id>", apis.EpisodeDetailApi.as_view(), name="episode-detail"),
    path("experiences", apis.ExperienceListApi.as_view(), name="experiences"),
    path("experiences/<str:experience_id>", apis.ExperienceDetailApi.as_view(), name="experience-detail"),
    path("entities", apis.EntityListApi.as_view(), name="entities"),
    path("forget", apis.ForgetApi.as_view(), name="forget"),
    path("search", apis.SearchApi.as_view(), name="search"),
    path("feedback", apis.FeedbackApi.as_view(), name="feedback"),
    path("export", apis.ExportApi.as_view(), name="export"),
    path("metrics", apis.MetricsApi.as_view(), name="metrics"),
    path("consolidations", apis.ConsolidationListApi.as_view(), name="consolidations"),
    path("consolidations/run", apis.ConsolidationRequestApi.as_view(), name="consolidations-run"),
    path("consolidations/<str:batch_id>", apis.ConsolidationDetailApi.as_view(), name="consolidation-detail"),
]
