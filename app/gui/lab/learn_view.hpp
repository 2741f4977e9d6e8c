// LearnView: a short page per format family, from resources/learn, numbers filled from the catalog.
#pragma once

#include <QWidget>
#include <string>

class QListWidget;
class QTextBrowser;

namespace floatscope::gui {

class LearnView : public QWidget {
    Q_OBJECT
public:
    explicit LearnView(QWidget* parent = nullptr);

    QListWidget* pages() const { return pages_; }
    QTextBrowser* browser() const { return browser_; }
    /// The page shown as plain text, one CSV record (page, text) per non-empty line.
    std::string csv() const;

    /// The resource paths of the pages, in the order shown (":/learn/fp64.html", ...).
    static QStringList page_files();

private:
    void show_page(int index);

    QListWidget* pages_ = nullptr;
    QTextBrowser* browser_ = nullptr;
};

}  // namespace floatscope::gui
