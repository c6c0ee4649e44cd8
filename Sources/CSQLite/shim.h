/* SQLite, for Sources/PhotoGridCatalog/Catalog/SQLite.swift only. It returns error codes (no
   longjmp). SQLITE_TRANSIENT, which asks SQLite to copy a bound value before the call returns,
   is a cast macro Swift cannot import: it comes through the inline function below. */
#include <sqlite3.h>

static inline sqlite3_destructor_type pg_sqlite_transient(void) { return SQLITE_TRANSIENT; }
