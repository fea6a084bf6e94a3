"""The printable setup sheet (issue 3): the open checklist of :func:`setupgen.checklist` with the public draws
written in, A4 or Letter. Hidden information (each fire's Nagaya, later seasons' Personalities and River tokens,
each month's New Character and Blocking tile) is never printed, nor named item by item: where it would be, the
sheet says what the game tracker reveals when it is due (the step's ``hidden_note``, issue 20)."""

from __future__ import annotations

from io import BytesIO
from typing import Final
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from companion.pdf.fonts import fonts, text
from scoring.problems import join
from setupgen import Setup, checklist
from setupgen.checklist import Section

PAGE_SIZES: Final = {"a4": A4, "letter": LETTER}


def _p(value: str) -> str:
    return escape(text(value))


def _summary(setup: Setup) -> str:
    parts = [f"{setup.players} players", "IKI Akebono" if setup.akebono else "base game"]
    if setup.options.grand_master:
        parts.append("Grand Master variant")
    return " · ".join(parts)


def setup_sheet_pdf(setup: Setup, *, size: str = "a4", house: str = "") -> bytes:
    """The sheet as PDF bytes; ``size`` is ``a4`` or ``letter``; ``house``: the house-rules line, if any."""
    regular, bold = fonts()
    body = ParagraphStyle("body", fontName=regular, fontSize=9.5, leading=12.5)
    small = ParagraphStyle(
        "small", parent=body, fontSize=8.5, leading=11, textColor=colors.HexColor("#444444")
    )
    title = ParagraphStyle("title", parent=body, fontName=bold, fontSize=17, leading=21, spaceAfter=2)
    heading = ParagraphStyle("heading", parent=body, fontName=bold, fontSize=12, leading=15, spaceBefore=8)
    step_title = ParagraphStyle("step", parent=body, fontName=bold)
    detail = ParagraphStyle("detail", parent=body, leftIndent=8, bulletIndent=0)
    hidden = ParagraphStyle("hidden", parent=small, leftIndent=8, bulletIndent=0)

    steps = checklist(setup)
    notes = [step.hidden_note for step in steps if step.hidden]
    buffer = BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=PAGE_SIZES[size],
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=14 * mm,
        bottomMargin=14 * mm,
        title=f"IKI setup {setup.seed}",
        author="IKI companion",
    )
    story: list[Flowable] = [
        Paragraph("IKI setup sheet", title),
        Paragraph(
            f"Setup code <font name='{bold}'>{setup.seed}</font> · {_p(_summary(setup))} · generator version "
            f"{setup.generator_version}",
            body,
        ),
        Paragraph(
            f"This sheet prints no hidden draw ({_p(join(notes))}). The game tracker reveals each one when it is "
            f"due: on the setup page of setup code {setup.seed} with these options, tap “Track this game”.",
            small,
        ),
        Spacer(1, 4),
    ]
    if house:
        story.insert(2, Paragraph(_p(house), body))
    section: Section | None = None
    for step in steps:
        # A section's heading goes with its first step: never alone at the foot of the page before it.
        head: list[Flowable] = []
        if step.section is not section:
            section = step.section
            head.append(Paragraph(_p(section.label), heading))
        block: list[Flowable] = [
            Paragraph(
                f"☐ {_p(step.title)}" if regular != "Helvetica" else f"[ ] {_p(step.title)}", step_title
            )
        ]
        block.append(Paragraph(_p(step.text), body))
        block.extend(Paragraph(_p(line), detail, bulletText="•") for line in step.details)
        if step.hidden:
            block.append(Paragraph(_p(step.tracker_note), hidden))
        table = Table([[block]], colWidths=[doc.width])
        table.setStyle(
            TableStyle(
                [
                    ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.HexColor("#bbbbbb")),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 3),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
                ]
            )
        )
        story.append(KeepTogether([*head, table]))
    doc.build(story)
    return buffer.getvalue()
