"""``{% once %}``: a form's one-time code as a hidden field (companion.forms.OnceField): a double tap on the form's
button sends the same code twice, and the view finds what the first tap made instead of making it again."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from companion.tokens import new_token

register = template.Library()


@register.simple_tag
def once() -> SafeString:
    return format_html('<input type="hidden" name="once" value="{}">', new_token())
