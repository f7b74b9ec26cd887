/* SPDX-License-Identifier: BSD-2-Clause */
/* log.h - leveled logging to stderr */
#ifndef EMBER_LOG_H
#define EMBER_LOG_H

enum log_level { LOG_LVL_ERR, LOG_LVL_WARN, LOG_LVL_INFO, LOG_LVL_DEBUG };

void log_set_level(enum log_level lvl);
enum log_level log_get_level(void);
void log_msg(enum log_level lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_err(...) log_msg(LOG_LVL_ERR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_LVL_WARN, __VA_ARGS__)
#define log_info(...) log_msg(LOG_LVL_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_LVL_DEBUG, __VA_ARGS__)

/* Route libbpf's messages through log_msg (its debug output only under -v). */
void log_setup_libbpf(void);

#endif
