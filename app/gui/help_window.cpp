// The user guide and the version list.
#include "app/gui/help_window.hpp"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <cstdint>  // before mpfr.h, which then declares its intmax_t functions

#include <CLI/Version.hpp>
#include <Eigen/Core>
#include <boost/version.hpp>
#include <fmt/format.h>
#include <gmp.h>
#include <mpfr.h>
#include <nlohmann/json.hpp>

namespace floatscope::gui {

HelpWindow::HelpWindow(QWidget* parent) : QDialog(parent) {
    setWindowTitle(QStringLiteral("FloatScope user guide"));
    browser_ = new QTextBrowser(this);
    browser_->setObjectName(QStringLiteral("guide"));
    browser_->setOpenExternalLinks(true);
    browser_->setSearchPaths({QStringLiteral(":/guide")});
    browser_->setSource(QUrl(QStringLiteral("qrc:/guide/gui.md")), QTextDocument::MarkdownResource);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* back = buttons->addButton(QStringLiteral("&Back"), QDialogButtonBox::ActionRole);
    connect(back, &QPushButton::clicked, browser_, &QTextBrowser::backward);
    connect(browser_, &QTextBrowser::backwardAvailable, back, &QPushButton::setEnabled);
    back->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_);
    layout->addWidget(buttons);
    resize(760, 640);
}

QString library_versions() {
    const std::string lines = fmt::format(
        "FloatScope {}\n"
        "Qt {} (running {})\n"
        "MPFR {}\n"
        "GMP {}.{}.{}\n"
        "Boost {}.{}.{}\n"
        "Eigen {}.{}.{}\n"
        "fmt {}.{}.{}\n"
        "CLI11 {}\n"
        "nlohmann-json {}.{}.{}",
        FLOATSCOPE_VERSION, QT_VERSION_STR, qVersion(), MPFR_VERSION_STRING, __GNU_MP_VERSION, __GNU_MP_VERSION_MINOR,
        __GNU_MP_VERSION_PATCHLEVEL, BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100,
        EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION, FMT_VERSION / 10000, FMT_VERSION / 100 % 100,
        FMT_VERSION % 100, CLI11_VERSION, NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
        NLOHMANN_JSON_VERSION_PATCH);
    return QString::fromStdString(lines);
}

}  // namespace floatscope::gui
