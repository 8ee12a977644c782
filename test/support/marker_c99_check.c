/* perfgauge/marker.h must compile as strict C99 (-std=c99 -pedantic, no feature macros): the
 * build compiles this file with -Werror. */
#include <perfgauge/marker.h>

void perfgauge_marker_c99_check(void);
void perfgauge_marker_c99_check(void) {
    perfgauge_marker_start();
    perfgauge_marker_stop();
}
