// SHA-256 against the FIPS 180-2 vectors, across block boundaries and in pieces.
#include <QtTest/QtTest>

#include <string>

#include "engine/store/artifact_hasher.h"
#include "engine/store/run_store.h"
#include "engine/store/sha256.h"
#include "engine/store/store_error.h"
#include "store_test_support.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_sha256 {

using adala::store::Sha256;
using adala::store::sha256_hex;

class TestSha256 : public QObject {
  Q_OBJECT
 private slots:
  void known_vectors() {
    QCOMPARE(sha256_hex(""),
             std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    QCOMPARE(sha256_hex("abc"),
             std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
             std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    QCOMPARE(sha256_hex(std::string(1000000, 'a')),
             std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
  }

  // 55/56/64-byte messages put the length field on either side of a block boundary.
  void padding_boundaries_match_one_shot_and_pieces() {
    for (size_t size : {55u, 56u, 63u, 64u, 65u, 119u, 120u, 128u, 1000u}) {
      std::string message;
      for (size_t i = 0; i < size; ++i) message += char('a' + i % 26);
      Sha256 pieces;
      for (size_t at = 0; at < size; at += 7) pieces.update(message.substr(at, 7));
      QCOMPARE(pieces.hex_digest(), sha256_hex(message));
    }
    // 64 x 'a' and 56 x 'a' (precomputed with coreutils sha256sum).
    QCOMPARE(sha256_hex(std::string(64, 'a')),
             std::string("ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"));
    QCOMPARE(sha256_hex(std::string(56, 'a')),
             std::string("b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"));
  }

  void file_digest_and_size() {
    const std::string dir = store_test::fresh_dir("sha256");
    const std::string path = dir + "/abc.bin";
    store_test::write_bytes(path, "abc");
    const auto digest = adala::store::sha256_file(path);
    QCOMPARE(digest.bytes, int64_t(3));
    QCOMPARE(digest.sha256, sha256_hex("abc"));
  }

  void missing_file_names_the_file() {
    try {
      adala::store::sha256_file("/nonexistent/dir/x.bin");
      QFAIL("no error for a missing file");
    } catch (const adala::store::StoreError& e) {
      QVERIFY2(std::string(e.what()).find("/nonexistent/dir/x.bin") != std::string::npos, e.what());
    }
  }

  // The hasher's worker reports every queued file, in order, with the digest sha256_file gives.
  void hasher_reports_in_queue_order() {
    const std::string dir = store_test::fresh_dir("hasher");
    std::vector<std::string> paths;
    for (int i = 0; i < 5; ++i) {
      paths.push_back(dir + "/f" + std::to_string(i) + ".bin");
      store_test::write_bytes(paths.back(), std::string(size_t(100000 * i), char('a' + i)));
    }
    adala::store::ArtifactHasher hasher;
    std::vector<uint64_t> tickets;
    for (const auto& p : paths) tickets.push_back(hasher.submit(7, p));
    tickets.push_back(hasher.submit(7, dir + "/missing.bin"));
    hasher.wait_idle();
    const auto results = hasher.take_results();
    QCOMPARE(results.size(), paths.size() + 1);
    for (size_t i = 0; i < paths.size(); ++i) {
      QCOMPARE(results[i].job.ticket, tickets[i]);
      QCOMPARE(results[i].job.run, int64_t(7));
      QVERIFY(results[i].error.empty());
      QCOMPARE(results[i].digest.sha256, adala::store::sha256_file(paths[i]).sha256);
      QCOMPARE(results[i].digest.bytes, int64_t(100000 * i));
    }
    QVERIFY(tickets[1] > tickets[0]);
    QVERIFY2(results.back().error.find("missing.bin") != std::string::npos,
             results.back().error.c_str());
    QVERIFY(!hasher.has_results());
    QVERIFY(hasher.take_results().empty());
  }

  // add_artifact records the file at once; the digest it stores when the hash is done (read
  // back by a fresh connection after the store closes) is the file's, and re-adding a rewritten
  // file stores the new one.
  void store_writes_the_digest_when_ready() {
    using adala::store::RunStore;
    const std::string dir = store_test::fresh_dir("hasher_store");
    const std::string db = dir + "/runs.sqlite", file = dir + "/ckpt.bin";
    int64_t run = 0;
    {
      RunStore store(db);
      run = store.create_run("r", "{}", "cpu", "t", "v");
      store_test::write_bytes(file, std::string(3000000, 'x'));
      store.add_artifact(run, "checkpoint", file);
      store_test::write_bytes(file, "abc");  // rewritten before the first hash may be done
      store.add_artifact(run, "checkpoint", file);
    }
    RunStore reader(db, adala::store::OpenMode::ReadOnly);
    const auto artifacts = reader.artifacts(run);
    QCOMPARE(artifacts.size(), size_t(1));
    QCOMPARE(artifacts[0].sha256, sha256_hex("abc"));
    QCOMPARE(artifacts[0].bytes, int64_t(3));
  }
};

ADALA_TEST_GUILESS_MAIN(TestSha256)
}  // namespace test_sha256

#include "test_sha256.moc"
