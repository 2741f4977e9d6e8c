// The Learn tab: page list on the left, the filled-in page in a QTextBrowser.
#include "app/gui/lab/learn_view.hpp"

#include <QFile>
#include <QHBoxLayout>
#include <QListWidget>
#include <QTextBrowser>

#include "app/gui/lab/learn_template.hpp"
#include "core/csv.hpp"
#include "core/error.hpp"

// The resources are compiled into the static GUI library; nothing else references that object
// file, so it is pulled in (and registered) here. Q_INIT_RESOURCE must be called outside a namespace.
static void register_learn_resources() { Q_INIT_RESOURCE(floatscope); }

namespace floatscope::gui {

namespace {

struct Page {
    const char* title;
    const char* file;
};

const Page learn_pages[] = {
    {"FP64", "fp64"},
    {"FP32", "fp32"},
    {"TF32", "tf32"},
    {"BF16", "bf16"},
    {"FP16", "fp16"},
    {"FP8 E4M3 / E5M2", "fp8"},
    {"FP6 / FP4", "fp6_fp4"},
    {"NF4", "nf4"},
    {"INT8 / INT4", "int"},
    {"MX block formats", "mx"},
    {"Posits, takums, HiF8", "tapered"},
};

}  // namespace

QStringList LearnView::page_files() {
    QStringList files;
    for (const Page& page : learn_pages) files << QStringLiteral(":/learn/%1.html").arg(QLatin1String(page.file));
    return files;
}

LearnView::LearnView(QWidget* parent) : QWidget(parent) {
    register_learn_resources();
    pages_ = new QListWidget(this);
    for (const Page& page : learn_pages) pages_->addItem(QString::fromLatin1(page.title));
    pages_->setMaximumWidth(180);
    browser_ = new QTextBrowser(this);
    browser_->setOpenExternalLinks(true);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(pages_);
    layout->addWidget(browser_, 1);
    connect(pages_, &QListWidget::currentRowChanged, this, &LearnView::show_page);
    pages_->setCurrentRow(0);
}

void LearnView::show_page(int index) {
    if (index < 0) return;
    QFile file(page_files().at(index));
    if (!file.open(QIODevice::ReadOnly)) {
        browser_->setPlainText(QStringLiteral("missing page %1").arg(file.fileName()));
        return;
    }
    try {
        browser_->setHtml(QString::fromStdString(fill_learn_template(file.readAll().toStdString())));
    } catch (const Error& e) {
        browser_->setPlainText(QString::fromStdString(e.what()));
    }
}

std::string LearnView::csv() const {
    std::string out = core::csv_record({"page", "text"}, core::csv_crlf);
    const QString page = pages_->currentItem() ? pages_->currentItem()->text() : QString();
    for (const QString& line : browser_->toPlainText().split('\n', Qt::SkipEmptyParts))
        out += core::csv_record({page.toStdString(), line.toStdString()}, core::csv_crlf);
    return out;
}

}  // namespace floatscope::gui
