/* ncursesw, for Sources/PhotoGridCore/Terminal/Curses.swift only.
   Swift 6 rejects ncurses' globals (stdscr, LINES, COLS) as shared mutable state and does not
   import function-like macros (A_REVERSE, COLOR_PAIR), so they are reached through these
   accessors. Only the event-loop thread calls them. */
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <term.h>
#include <locale.h>

static inline WINDOW *pg_stdscr(void) { return stdscr; }
static inline int pg_lines(void) { return LINES; }
static inline int pg_cols(void) { return COLS; }
static inline attr_t pg_attr_reverse(void) { return A_REVERSE; }
static inline attr_t pg_attr_bold(void) { return A_BOLD; }
static inline attr_t pg_attr_dim(void) { return A_DIM; }
static inline attr_t pg_attr_normal(void) { return A_NORMAL; }
static inline attr_t pg_color_pair(int n) { return COLOR_PAIR(n); }
static inline FILE *pg_stdout(void) { return stdout; }
static inline FILE *pg_stdin(void) { return stdin; }

/* The mouse: clicks, double clicks and the wheel, decoded by ncurses from the terminal's reports
   (SGR 1006 where terminfo says the terminal has it). A double click is told from a click by
   waiting up to 200 ms after the first. */
static inline void pg_mouse_on(void) {
    mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(200);
}
/* 1 click, 2 double click, 3 wheel up, 4 wheel down, 0 anything else; the cell in x, y. */
static inline int pg_mouse_event(int *x, int *y) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *x = event.x;
    *y = event.y;
    if (event.bstate & BUTTON1_DOUBLE_CLICKED) return 2;
    if (event.bstate & BUTTON1_CLICKED) return 1;
    if (event.bstate & BUTTON4_PRESSED) return 3;
    if (event.bstate & BUTTON5_PRESSED) return 4;
    return 0;
}
