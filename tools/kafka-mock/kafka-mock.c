/*
 * Kafka-protocol test broker: librdkafka's mock cluster as a standalone process.
 * No Kafka broker is installable on the CI machines, but this speaks the Kafka
 * wire protocol over TCP (produce, fetch, consumer groups, committed offsets).
 *
 * usage: kafka-mock <brokers> <partitions> <control-fifo> <topic>...
 * Prints "BOOTSTRAP <host:port,...>" once ready. Reads commands, one per line,
 * from the control FIFO: "down" / "up" (every broker), "down <id>" / "up <id>",
 * "quit". Brokers are taken down, never killed: killing this process loses every
 * topic, message and offset, unlike a real Kafka restart.
 * On Linux it exits with its parent, so a killed test run never leaves it behind.
 */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <signal.h>
#include <sys/prctl.h>
#endif

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s <brokers> <partitions> <control-fifo> <topic>...\n", argv[0]);
    return 2;
  }
#ifdef __linux__
  /* The parent (scripts/test.mjs) may be SIGKILLed, e.g. by a CI timeout: it
   * cannot clean up then, so the kernel does it for us. */
  pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) return 1;
#endif
  int brokers = atoi(argv[1]);
  int partitions = atoi(argv[2]);
  const char *fifo = argv[3];
  char errstr[512];

  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
  if (!rk) { fprintf(stderr, "rd_kafka_new: %s\n", errstr); return 1; }
  rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(rk, brokers);
  if (!mc) { fprintf(stderr, "mock cluster failed\n"); return 1; }
  for (int i = 4; i < argc; i++) {
    int rf = brokers < 3 ? brokers : 3;
    if (rd_kafka_mock_topic_create(mc, argv[i], partitions, rf) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      fprintf(stderr, "topic %s failed\n", argv[i]);
      return 1;
    }
  }
  unlink(fifo);
  if (mkfifo(fifo, 0600) != 0) { perror("mkfifo"); return 1; }
  printf("BOOTSTRAP %s\n", rd_kafka_mock_cluster_bootstraps(mc));
  fflush(stdout);

  /* O_RDWR keeps a writer open ourselves, so the FIFO never reads EOF. */
  FILE *control = fdopen(open(fifo, O_RDWR), "r");
  char line[256];
  while (control && fgets(line, sizeof(line), control)) {
    char cmd[32] = {0};
    int id = -1;
    int n = sscanf(line, "%31s %d", cmd, &id);
    if (n < 1) continue;
    if (strcmp(cmd, "quit") == 0) break;
    int down = strcmp(cmd, "down") == 0;
    int up = strcmp(cmd, "up") == 0;
    if (!down && !up) { fprintf(stderr, "unknown command: %s", line); continue; }
    for (int b = 1; b <= brokers; b++) {
      if (n == 2 && b != id) continue;
      if (down) rd_kafka_mock_broker_set_down(mc, b);
      else rd_kafka_mock_broker_set_up(mc, b);
    }
    printf("OK %s\n", cmd);
    fflush(stdout);
  }
  unlink(fifo);
  /* No rd_kafka_mock_cluster_destroy()/rd_kafka_destroy(): they wait for the
   * mock thread's next poll (up to 1 s) and all state is thrown away anyway. */
  fflush(stdout);
  _exit(0);
}
