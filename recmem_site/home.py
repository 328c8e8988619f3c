"""The root page: what runs here and where to go (the admin's "View site" link lands here)."""

from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def home(request):
    return render(request, "recmem_home.html")
