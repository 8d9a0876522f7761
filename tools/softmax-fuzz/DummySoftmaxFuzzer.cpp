//===- DummySoftmaxFuzzer.cpp - softmax-fuzz without libFuzzer ------------===//
//
// The main of softmax-fuzz where libFuzzer is not linked (the main build): runs the fuzz target
// once on each file named on the command line, as upstream's Dummy*Fuzzer.cpp mains do. A
// reproducer that crashes the libFuzzer build crashes this one too.
//
//===----------------------------------------------------------------------===//

#include "llvm/FuzzMutate/FuzzerCLI.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char *argv[]) {
  return llvm::runFuzzerOnInputs(argc, argv, LLVMFuzzerTestOneInput);
}
