/* Nothing here: the header declares libFuzzer's driver, which -sanitize=fuzzer links in. */
#include "fuzz_driver.h"
