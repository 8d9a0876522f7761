//===- Report.cpp - What a softmax-run invocation found -------------------===//

#include "softmax/Runner/Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace softmax::runner;

int64_t RunReport::totalMismatches() const {
  int64_t total = 0;
  for (const OutputReport &output : outputReports)
    total += output.compare.mismatches;
  return total;
}

int64_t RunReport::totalUnwritten() const {
  int64_t total = 0;
  for (const OutputReport &output : outputReports)
    total += output.compare.unwritten;
  return total;
}

int64_t RunReport::totalPaddingTouched() const {
  int64_t total = 0;
  for (const OutputReport &output : outputReports)
    total += output.compare.paddingTouched;
  return total;
}

int64_t RunReport::totalPropertyViolations() const {
  int64_t total = 0;
  for (const PropertyReport &property : properties)
    total += property.violations;
  return total;
}

namespace {

/// A number, or null when it was not measured (negative).
void numberOrNull(llvm::json::OStream &json, llvm::StringRef key, double value) {
  if (value < 0)
    json.attribute(key, nullptr);
  else
    json.attribute(key, value);
}

void writeSpecs(llvm::json::OStream &json, const std::vector<ArgSpec> &specs) {
  json.array([&] {
    for (const ArgSpec &spec : specs)
      json.object([&] {
        json.attribute("name", spec.name);
        json.attribute("type", spec.typeString);
        json.attribute("dtype", getElementName(spec.element));
        if (spec.isTensor)
          json.attributeArray("shape", [&] {
            for (int64_t dim : spec.shape)
              json.value(dim);
          });
      });
  });
}

} // namespace

namespace {

/// One report as a JSON object (docs/runner.md lists the keys).
void writeReportObject(llvm::json::OStream &json, const RunReport &report) {
  json.object([&] {
    json.attribute("file", report.file);
    json.attribute("entry", report.entry);
    json.attribute("device", report.device);
    json.attribute("status", report.status);
    json.attribute("pass", report.exitCode == kExitPass);
    json.attribute("exit_code", report.exitCode);
    json.attributeArray("shapes", [&] {
      for (const ArgSpec &spec : report.inputs)
        json.value(spec.describe());
      for (const ArgSpec &spec : report.outputs)
        json.value(spec.describe());
    });
    json.attributeArray("dtypes", [&] {
      for (const ArgSpec &spec : report.inputs)
        json.value(getElementName(spec.element));
      for (const ArgSpec &spec : report.outputs)
        json.value(getElementName(spec.element));
    });
    json.attributeBegin("inputs");
    writeSpecs(json, report.inputs);
    json.attributeEnd();
    json.attributeBegin("outputs");
    writeSpecs(json, report.outputs);
    json.attributeEnd();
    json.attributeArray("plans", [&] {
      for (const std::string &plan : report.plans)
        json.value(plan);
    });
    json.attributeArray("kernels", [&] {
      for (const std::string &kernel : report.kernels)
        json.value(kernel);
    });
    json.attribute("launcher", report.launcher);
    json.attribute("seed", static_cast<int64_t>(report.seed));
    json.attribute("row_stride", report.rowStride);
    json.attributeArray("notes", [&] {
      for (const std::string &note : report.notes)
        json.value(note);
    });
    json.attributeArray("errors", [&] {
      for (const std::string &line : report.errors)
        json.value(line);
    });
    json.attribute("mismatches", report.totalMismatches());
    json.attribute("unwritten", report.totalUnwritten());
    json.attribute("padding_touched", report.totalPaddingTouched());
    json.attributeArray("checks", [&] {
      for (const OutputReport &output : report.outputReports)
        json.object([&] {
          const CompareResult &c = output.compare;
          json.attribute("output", output.name);
          json.attribute("kind", getOutputKindName(output.kind));
          json.attribute("checked", output.checked);
          json.attribute("against", output.expectedFile.empty() ? std::string("reference")
                                                                : output.expectedFile);
          json.attribute("elements", c.elements);
          json.attribute("mismatches", c.mismatches);
          json.attribute("accepted_by_alternative", c.acceptedByAlternative);
          json.attribute("accepted_by_logit_conditioning", c.acceptedByLogitConditioning);
          json.attribute("unwritten", c.unwritten);
          json.attribute("padding_touched", c.paddingTouched);
          json.attribute("max_abs_error", c.maxAbsError);
          json.attribute("max_rel_error", c.maxRelError);
          numberOrNull(json, "row_sum_error", c.rowSumError);
          json.attribute("rtol", c.tolerance.rtol);
          json.attribute("atol_row", c.tolerance.atolRow);
          json.attribute("atol_floor", c.tolerance.atolFloor);
          json.attributeArray("first_mismatches", [&] {
            for (const Mismatch &mismatch : c.first)
              json.value(describeMismatch(mismatch));
          });
        });
    });
    json.attributeArray("properties", [&] {
      for (const PropertyReport &property : report.properties)
        json.object([&] {
          json.attribute("property", property.name);
          json.attribute("output", property.output);
          json.attribute("applied", property.applied);
          json.attribute("reason", property.reason);
          json.attribute("violations", property.violations);
          numberOrNull(json, "measured", property.measured);
          numberOrNull(json, "bound", property.bound);
          json.attribute("within_logit_conditioning", property.withinLogitConditioning);
          json.attribute("first_violation", property.first);
        });
    });
    json.attribute("property_violations", report.totalPropertyViolations());
    json.attribute("benched", report.benched);
    json.attribute("reps", report.reps);
    json.attribute("warmup", report.warmup);
    json.attribute("launches_per_call", report.launchesPerCall);
    numberOrNull(json, "median_us", report.medianUs);
    numberOrNull(json, "min_us", report.minUs);
    numberOrNull(json, "max_us", report.maxUs);
    numberOrNull(json, "copy_us", report.copyUs);
    numberOrNull(json, "fraction_of_copy", report.fractionOfCopy);
    numberOrNull(json, "gbps", report.gbps);
    json.attribute("ideal_bytes", report.idealBytes);
    json.attribute("fits_in_l2", report.fitsInL2);
    json.attribute("inputs_on_device", report.inputsOnDevice);
  });
}

/// Opens `path` and writes into it with `write`.
bool writeJsonFile(const std::string &path, std::string &error,
                   llvm::function_ref<void(llvm::json::OStream &)> write) {
  std::error_code ec;
  llvm::raw_fd_ostream file(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error = "cannot write --json file '" + path + "': " + ec.message();
    return false;
  }
  {
    llvm::json::OStream json(file, 2);
    write(json);
  }
  file << "\n";
  return true;
}

} // namespace

bool softmax::runner::writeJson(const RunReport &report, const std::string &path,
                                std::string &error) {
  return writeJsonFile(path, error,
                       [&](llvm::json::OStream &json) { writeReportObject(json, report); });
}

bool softmax::runner::writeJsonArray(const std::vector<RunReport> &reports,
                                     const std::string &path, std::string &error) {
  return writeJsonFile(path, error, [&](llvm::json::OStream &json) {
    json.array([&] {
      for (const RunReport &report : reports)
        writeReportObject(json, report);
    });
  });
}

std::string softmax::runner::describeShapes(const RunReport &report) {
  std::string text;
  for (const ArgSpec &spec : report.inputs)
    if (spec.isTensor)
      text += (text.empty() ? "" : ",") + spec.describe();
  return text.empty() ? "-" : text;
}

void softmax::runner::printCaseLine(const RunReport &report, size_t index, size_t total,
                                    llvm::raw_ostream &os) {
  auto number = [](double value, const char *format) -> std::string {
    if (value < 0)
      return "-";
    return llvm::formatv(format, value).str();
  };
  os << "case " << index + 1 << "/" << total << " " << report.status << " "
     << describeShapes(report) << " median_us=" << number(report.medianUs, "{0:F2}")
     << " copy_us=" << number(report.copyUs, "{0:F2}")
     << " fraction_of_copy=" << number(report.fractionOfCopy, "{0:F3}")
     << " gbps=" << number(report.gbps, "{0:F1}") << " mismatches=" << report.totalMismatches()
     << " unwritten=" << report.totalUnwritten() << "\n";
}

void softmax::runner::printSummary(const RunReport &report, llvm::raw_ostream &os) {
  os << "---\n";
  os << "file:    " << report.file << " @" << report.entry << "\n";
  if (!report.inputs.empty() || !report.outputs.empty()) {
    os << "args:    ";
    for (size_t i = 0; i < report.inputs.size(); ++i)
      os << (i ? ", " : "") << report.inputs[i].describe();
    os << "  ->  ";
    for (size_t i = 0; i < report.outputs.size(); ++i)
      os << (i ? ", " : "") << report.outputs[i].describe();
    os << "\n";
  }
  if (!report.device.empty())
    os << "device:  " << report.device << "\n";
  for (const std::string &plan : report.plans)
    os << "plan:    " << plan << "\n";
  for (const std::string &kernel : report.kernels)
    os << "kernel:  " << kernel << "\n";
  if (!report.launcher.empty())
    os << "launch:  " << report.launcher << "\n";
  for (const OutputReport &output : report.outputReports) {
    const CompareResult &c = output.compare;
    if (output.expectedFile.empty())
      os << "check:   " << output.name << " (" << getOutputKindName(output.kind) << ")";
    else
      os << "expect:  " << output.name << " (" << getOutputKindName(output.kind) << ") vs "
         << output.expectedFile;
    if (output.checked) {
      os << llvm::format(": max abs %.3g, max rel %.3g", c.maxAbsError, c.maxRelError);
      if (c.rowSumError >= 0)
        os << llvm::format(", row-sum err %.3g", c.rowSumError);
    } else {
      os << ": not compared (--no-check)";
    }
    os << ", mismatches " << c.mismatches << ", unwritten " << c.unwritten;
    if (c.acceptedByAlternative > 0)
      os << ", " << c.acceptedByAlternative
         << " element(s) off the float64 reference but within tolerance of an admissible alternative";
    if (c.acceptedByLogitConditioning > 0)
      os << ", " << c.acceptedByLogitConditioning
         << " element(s) within the f32 conditioning of their large logits";
    if (report.rowStride > 0)
      os << ", padding touched " << c.paddingTouched;
    os << "\n";
  }
  for (const PropertyReport &property : report.properties) {
    os << "property: " << property.name;
    if (!property.output.empty())
      os << " on " << property.output;
    if (!property.applied) {
      os << ": not applicable (" << property.reason << ")\n";
      continue;
    }
    os << ": " << (property.violations ? "VIOLATED" : "holds");
    if (property.bound >= 0)
      os << llvm::format(" (largest |sum - 1| %.3g, bound %.3g)", property.measured,
                         property.bound);
    if (property.withinLogitConditioning)
      os << ", " << property.withinLogitConditioning
         << " within the f32 conditioning of their large logits";
    if (property.violations)
      os << ", " << property.violations << " violation(s), first: " << property.first;
    os << "\n";
  }
  if (report.benched) {
    os << llvm::format(
        "bench:   median %.2f us (min %.2f, max %.2f, %d reps, %lld launch(es)/call)",
        report.medianUs, report.minUs, report.maxUs, report.reps,
        static_cast<long long>(report.launchesPerCall));
    os << llvm::format("; copy %.2f us; fraction of copy %.3f; %.1f GB/s of %.1f MB ideal\n",
                       report.copyUs, report.fractionOfCopy, report.gbps, report.idealBytes / 1e6);
  }
  for (const std::string &line : report.errors)
    os << "error:   " << line << "\n";
  os << report.status << ": " << report.entry;
  if (!report.outputs.empty()) {
    os << " ";
    for (size_t i = 0; i < report.inputs.size(); ++i)
      if (report.inputs[i].isTensor) {
        os << report.inputs[i].describe();
        break;
      }
  }
  if (!report.outputReports.empty())
    os << " mismatches=" << report.totalMismatches() << " unwritten=" << report.totalUnwritten();
  if (report.benched)
    os << llvm::format(" median_us=%.2f fraction_of_copy=%.3f", report.medianUs,
                       report.fractionOfCopy);
  os << "\n";
}

void softmax::runner::printCasesSummary(const RunReport &base, const std::vector<RunReport> &reports,
                                        llvm::raw_ostream &os) {
  os << "---\n";
  os << "file:    " << base.file << " @" << base.entry << "\n";
  if (!base.device.empty())
    os << "device:  " << base.device << "\n";
  for (const std::string &plan : base.plans)
    os << "plan:    " << plan << "\n";
  for (const std::string &kernel : base.kernels)
    os << "kernel:  " << kernel << "\n";
  if (!base.launcher.empty())
    os << "launch:  " << base.launcher << "\n";
  size_t failed = 0;
  const RunReport *firstFailed = nullptr;
  for (const RunReport &report : reports)
    if (report.exitCode != kExitPass) {
      ++failed;
      if (!firstFailed)
        firstFailed = &report;
    }
  os << "cases:   " << reports.size() << " run, " << reports.size() - failed << " passed, " << failed
     << " failed\n";
  if (!firstFailed) {
    os << (reports.empty() ? "PASS" : reports.front().status) << ": " << base.entry << " "
       << reports.size() << " case(s)\n";
    return;
  }
  os << "FAIL: " << base.entry << " " << failed << " of " << reports.size()
     << " case(s) failed (first: " << describeShapes(*firstFailed) << " " << firstFailed->status
     << ")\n";
}
