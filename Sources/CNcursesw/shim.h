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

/* Forgets the terminfo entry setupterm loaded (cur_term is a global Swift 6 rejects). */
static inline void pg_forget_terminfo(void) { del_curterm(cur_term); cur_term = NULL; }
